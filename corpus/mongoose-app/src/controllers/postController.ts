import { Request, Response } from 'express';
import { Types } from 'mongoose';
import { Post } from '../models/Post';
import { Comment } from '../models/Comment';
import { logActivity, notify } from '../models/Notification';

type AuthedRequest = Request & { user: { id: string } };

const PAGE_SIZE = 20;

// GET /posts?page=2
export async function listPosts(req: Request, res: Response) {
  const page = Math.max(parseInt(String(req.query.page ?? '1'), 10) || 1, 1);
  const posts = await Post.find({ published: true })
    .select('title slug author publishedAt')
    .sort({ publishedAt: -1 })
    .skip((page - 1) * PAGE_SIZE) // expect: skip-paging
    .limit(PAGE_SIZE)
    .populate('author', 'name avatarUrl') // ok: lookup-chain — a single populate
    .lean();
  res.json({ page, posts });
}

// GET /posts/:slug
export async function getPost(req: Request, res: Response) {
  const post = await Post.findOne({ slug: req.params.slug, published: true })
    .populate('author', 'name avatarUrl bio')
    .populate('category') // expect: lookup-chain
    .lean();
  if (!post) return res.sendStatus(404);
  await Post.findByIdAndUpdate(post._id, { $inc: { views: 1 } }); // expect: counter-inc
  res.json(post);
}

// GET /posts/:id/card — compact card for embeds
export async function getPostCard(req: Request, res: Response) {
  const post = await Post.findById(req.params.id).select('title slug author tags').populate(['author', 'tags']); // expect: lookup-chain
  if (!post) return res.sendStatus(404);
  res.json(post);
}

// GET /authors/:id/posts
export async function postsByAuthor(req: Request, res: Response) {
  const posts = await Post.find({ author: req.params.id, published: true })
    .sort({ publishedAt: -1 })
    .limit(50)
    .populate([
      { path: 'author', select: 'name avatarUrl' },
      // (The author is the filter's, one look-up for every post: only `category` joins.)
      { path: 'category', select: 'name slug' },
    ]);
  res.json(posts);
}

// GET /posts/:id/comments — post with its latest comments and their authors
export async function getPostWithComments(req: Request, res: Response) {
  const post = await Post.findById(req.params.id).populate({
    path: 'comments',
    options: { sort: { createdAt: -1 }, limit: 50 },
    populate: { path: 'author', select: 'name avatarUrl' }, // expect: lookup-chain
  });
  if (!post) return res.sendStatus(404);
  res.json(post);
}

// POST /posts/:id/like
export async function likePost(req: AuthedRequest, res: Response) {
  const post = await Post.findById(req.params.id);
  if (!post) return res.sendStatus(404);
  const userId = new Types.ObjectId(req.user.id);
  if (!post.likes.some((id) => id.equals(userId))) {
    post.likes.push(userId); // expect: unbounded-push
    await post.save();
    await notify(post.author, { kind: 'like', actor: userId, post: post._id as Types.ObjectId, at: new Date() });
  }
  res.json({ likes: post.likes.length });
}

// DELETE /posts/:id/like
export async function unlikePost(req: AuthedRequest, res: Response) {
  await Post.updateOne({ _id: req.params.id }, { $pull: { likes: new Types.ObjectId(req.user.id) } });
  res.sendStatus(204);
}

// POST /posts/:id/comments
export async function addComment(req: AuthedRequest, res: Response) {
  const postId = new Types.ObjectId(req.params.id);
  const actor = new Types.ObjectId(req.user.id);
  const comment = await Comment.create({ post: postId, author: actor, body: req.body.body });
  await Post.findByIdAndUpdate(
    postId,
    {
      $push: { comments: comment._id }, // expect: unbounded-push
    },
    { new: true },
  );
  await logActivity(actor, 'comment', postId);
  res.status(201).json(comment);
}

// POST /authors/:id/boost — editors promote every post of an author
export async function boostAuthor(req: Request, res: Response) {
  const result = await Post.updateMany(
    { author: req.params.id, published: true },
    { $inc: { score: 1 } }, // ok: counter-inc — updateMany
  );
  res.json({ boosted: result.modifiedCount });
}
