import mongoose, { Schema, Document, Types } from 'mongoose';

export interface IUser extends Document {
  email: string;
  name: string;
  bio?: string;
  avatarUrl?: string;
  links: { label: string; url: string }[];
  followers: Types.Array<Types.ObjectId>;
  following: Types.Array<Types.ObjectId>;
  blockedUsers: Types.Array<Types.ObjectId>;
  bookmarks: Types.Array<Types.ObjectId>;
  recentSearches: string[];
  loginCount: number;
  lastLoginAt?: Date;
}

const userSchema = new Schema<IUser>(
  {
    email: { type: String, required: true, unique: true, lowercase: true, trim: true },
    name: { type: String, required: true },
    bio: String,
    avatarUrl: String,
    links: [{ label: String, url: String }],
    followers: [{ type: Schema.Types.ObjectId, ref: 'User' }],
    following: [{ type: Schema.Types.ObjectId, ref: 'User' }],
    blockedUsers: [{ type: Schema.Types.ObjectId, ref: 'User' }],
    bookmarks: [{ type: Schema.Types.ObjectId, ref: 'Post' }],
    recentSearches: [String],
    loginCount: { type: Number, default: 0 },
    lastLoginAt: Date,
  },
  { timestamps: true },
);

export const User = mongoose.model<IUser>('User', userSchema);
