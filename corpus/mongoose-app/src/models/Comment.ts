import mongoose, { Schema, Types } from 'mongoose';

export interface IComment {
  post: Types.ObjectId;
  author: Types.ObjectId;
  parent?: Types.ObjectId;
  body: string;
  likeCount: number;
  createdAt: Date;
}

const commentSchema = new Schema<IComment>(
  {
    post: { type: Schema.Types.ObjectId, ref: 'Post', required: true },
    author: { type: Schema.Types.ObjectId, ref: 'User', required: true },
    parent: { type: Schema.Types.ObjectId, ref: 'Comment' },
    body: { type: String, required: true, maxlength: 5000 },
    likeCount: { type: Number, default: 0 },
  },
  { timestamps: true },
);

commentSchema.index({ post: 1, createdAt: -1 });

export const Comment = mongoose.model<IComment>('Comment', commentSchema);
