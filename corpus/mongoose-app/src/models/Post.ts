import { Schema, model, Document, Types } from 'mongoose';

export interface IPost extends Document {
  title: string;
  slug: string;
  body: string;
  author: Types.ObjectId;
  category?: Types.ObjectId;
  tags: Types.ObjectId[];
  likes: Types.Array<Types.ObjectId>;
  comments: Types.Array<Types.ObjectId>;
  views: number;
  score: number;
  timesPostOfTheDay: number;
  postOfTheDayAt?: Date;
  published: boolean;
  publishedAt?: Date;
}

const PostSchema = new Schema<IPost>(
  {
    title: { type: String, required: true, trim: true },
    slug: { type: String, required: true },
    body: { type: String, default: '' },
    author: { type: Schema.Types.ObjectId, ref: 'User', required: true },
    category: { type: Schema.Types.ObjectId, ref: 'Category' },
    tags: [{ type: Schema.Types.ObjectId, ref: 'Tag' }],
    likes: [{ type: Schema.Types.ObjectId, ref: 'User' }],
    comments: [{ type: Schema.Types.ObjectId, ref: 'Comment' }],
    views: { type: Number, default: 0 },
    score: { type: Number, default: 0 },
    timesPostOfTheDay: { type: Number, default: 0 },
    postOfTheDayAt: Date,
    published: { type: Boolean, default: false },
    publishedAt: Date,
  },
  { timestamps: true },
);

// Indexes for the feeds (feedService.ts), author pages and permalinks (postController.ts).
PostSchema.index({ published: 1, publishedAt: -1 });
PostSchema.index({ tags: 1, published: 1, publishedAt: -1 });
PostSchema.index({ author: 1, publishedAt: -1 });
PostSchema.index({ author: 1 }); // expect: redundant-index
PostSchema.index({ slug: 1 }, { unique: true });
PostSchema.index({ published: 1 }, { partialFilterExpression: { published: true } }); // ok: redundant-index — partial index
PostSchema.index({ title: 'text', body: 'text' });

export const Post = model<IPost>('Post', PostSchema);
