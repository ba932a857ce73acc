import { Types } from 'mongoose';
import { Post } from '../models/Post';
import { User } from '../models/User';
import { Comment } from '../models/Comment';

// Newsletter page preview: for each subscriber, the latest posts of the authors they follow.
export async function subscriberPreviews(subscriberIds: string[]) {
  const digests = [];
  for (const subscriber of await User.find({ _id: { $in: subscriberIds } }).lean()) {
    const posts = await Post.find({ author: { $in: subscriber.following }, published: true }) // expect: query-in-loop
      .sort({ publishedAt: -1 }) // ok: unindexed-query — served by { author: 1, publishedAt: -1 } (equality on author, then the sort)
      .limit(5)
      .lean();
    digests.push({ to: subscriber.email, posts });
  }
  return digests;
}

// Author cards for a list of posts: one query per post.
export async function authorsOf(postIds: Types.ObjectId[]) {
  return Promise.all(
    postIds.map(async (id) => {
      const post = await Post.findById(id).select('author').lean(); // expect: query-in-loop
      return post && User.findById(post.author).select('name avatarUrl').lean(); // expect: query-in-loop
    }),
  );
}

// Moderation queue: drafts edited most recently first.
export async function draftsQueue() {
  return Post.find({ published: false, category: { $exists: true } }).sort({ updatedAt: -1 }).limit(50).lean(); // expect: unindexed-query
}

// Discussion view: each comment of a post with its replies.
export async function threadOf(postId: string) {
  return Comment.aggregate([
    { $match: { post: new Types.ObjectId(postId) } }, // ok: unindexed-query — { post: 1, createdAt: -1 }
    { $sort: { createdAt: -1 } },
    {
      $lookup: {
        from: 'comments',
        localField: '_id',
        foreignField: 'parent', // expect: lookup-unindexed-foreign-field
        as: 'replies',
      },
    },
    {
      $lookup: { from: 'posts', localField: 'post', foreignField: '_id', as: 'post' }, // expect: lookup-chain
    },
  ]);
}

// Comment counts per post of one author, joined on the indexed `post` field.
export async function commentCounts(authorId: string) {
  return Post.aggregate([
    { $match: { author: new Types.ObjectId(authorId) } },
    {
      $lookup: { from: 'comments', localField: '_id', foreignField: 'post', as: 'c' }, // ok: lookup-unindexed-foreign-field — { post: 1, createdAt: -1 } starts with post
    },
    { $project: { title: 1, comments: { $size: '$c' } } },
  ]);
}
