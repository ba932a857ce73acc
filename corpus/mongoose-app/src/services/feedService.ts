import { Types } from 'mongoose';
import { Post } from '../models/Post';

// Trending: most liked recent posts, with author and category for the cards.
export async function trendingPosts(since: Date) {
  return Post.aggregate([
    { $match: { published: true, publishedAt: { $gte: since } } },
    { $addFields: { likeCount: { $size: '$likes' } } },
    { $sort: { likeCount: -1 } },
    { $limit: 20 },
    {
      $lookup: { from: 'users', localField: 'author', foreignField: '_id', as: 'author' },
    },
    { $unwind: '$author' },
    {
      $lookup: { from: 'categories', localField: 'category', foreignField: '_id', as: 'category' }, // expect: lookup-chain
    },
    { $project: { title: 1, slug: 1, likeCount: 1, 'author.name': 1, 'category.name': 1 } },
  ]);
}

// Tag page, numbered pages.
export async function postsByTag(tagId: string, page: number) {
  return Post.aggregate([
    { $match: { tags: new Types.ObjectId(tagId), published: true } },
    { $sort: { publishedAt: -1 } },
    { $skip: page * 20 }, // expect: skip-paging
    { $limit: 20 },
    { $project: { title: 1, slug: 1, publishedAt: 1 } },
  ]);
}

// Home feed for the apps: continue after the last post the client has.
export async function homeFeed(before?: Date) {
  const filter: Record<string, unknown> = { published: true };
  if (before) filter.publishedAt = { $lt: before }; // ok: skip-paging — keyset paging
  return Post.find(filter).sort({ publishedAt: -1 }).limit(20).select('title slug publishedAt').lean();
}

// Archive sidebar: titles grouped by month.
export async function archiveIndex() {
  return Post.aggregate([
    { $match: { published: true } },
    {
      $group: {
        _id: { y: { $year: '$publishedAt' }, m: { $month: '$publishedAt' } },
        posts: { $push: { title: '$title', slug: '$slug' } }, // ok: unbounded-push — $group accumulator
      },
    },
    { $sort: { '_id.y': -1, '_id.m': -1 } },
  ]);
}

// Category page: posts with their category, one join.
export async function categoryPosts(categoryId: string) {
  return Post.aggregate([
    { $match: { category: new Types.ObjectId(categoryId), published: true } },
    { $sort: { publishedAt: -1 } },
    { $limit: 30 },
    {
      $lookup: { from: 'categories', localField: 'category', foreignField: '_id', as: 'category' }, // ok: lookup-chain — a single $lookup
    },
  ]);
}
