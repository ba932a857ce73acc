import mongoose from 'mongoose';

export async function connectDb(): Promise<typeof mongoose> {
  mongoose.set('strictQuery', true);
  return mongoose.connect(process.env.MONGO_URL as string, { dbName: 'blog' });
}
