'use strict';

const express = require('express');
const { ObjectId } = require('mongodb');
const { db } = require('../db');

const router = express.Router();
const posts = db.collection('posts');
const comments = db.collection('comments');
const commentBuckets = db.collection('comment_buckets');

// POST /v1/posts/:postId/comments — legacy endpoint, comments embedded in the post
router.post('/v1/posts/:postId/comments', async (req, res, next) => {
  try {
    const comment = { _id: new ObjectId(), authorId: new ObjectId(req.user.id), text: req.body.text, at: new Date() };
    await posts.updateOne(
      { _id: new ObjectId(req.params.postId) },
      {
        $push: { comments: comment }, // expect: unbounded-push
      },
    );
    res.status(201).json(comment);
  } catch (err) {
    next(err);
  }
});

// POST /v2/posts/:postId/comments — bucket pattern: 200 comments per bucket document
router.post('/v2/posts/:postId/comments', async (req, res, next) => {
  try {
    const postId = new ObjectId(req.params.postId);
    const comment = { _id: new ObjectId(), authorId: new ObjectId(req.user.id), text: req.body.text, at: new Date() };
    await commentBuckets.updateOne(
      { postId, count: { $lt: 200 } },
      {
        $push: { comments: comment }, // ok: unbounded-push — bucket filter count < 200
        $inc: { count: 1 }, // ok: counter-inc — the bucket's own count
        $setOnInsert: { postId, openedAt: new Date() },
      },
      { upsert: true },
    );
    res.status(201).json(comment);
  } catch (err) {
    next(err);
  }
});

// POST /v2/posts/:postId/pins — at most 10 pinned comments, checked before the update
const MAX_PINS = 10;
router.post('/v2/posts/:postId/pins', async (req, res, next) => {
  try {
    const post = await posts.findOne({ _id: new ObjectId(req.params.postId) }, { projection: { pinned: 1 } });
    if (!post) return res.sendStatus(404);
    if (post.pinned.length >= MAX_PINS) {
      return res.status(409).json({ error: 'too many pinned comments' });
    }
    await posts.updateOne(
      { _id: post._id },
      { $push: { pinned: new ObjectId(req.body.commentId) } }, // ok: unbounded-push — the length check above bounds it
    );
    res.sendStatus(204);
  } catch (err) {
    next(err);
  }
});

// GET /v2/posts/:postId/comments?after=<bucketId> — one bucket is one page
router.get('/v2/posts/:postId/comments', async (req, res, next) => {
  try {
    const filter = { postId: new ObjectId(req.params.postId) };
    if (req.query.after) filter._id = { $gt: new ObjectId(req.query.after) };
    const bucket = await commentBuckets.findOne(filter, { sort: { _id: 1 } });
    res.json(bucket || { comments: [] });
  } catch (err) {
    next(err);
  }
});

// POST /comments/:id/like
router.post('/comments/:id/like', async (req, res, next) => {
  try {
    await comments.updateOne({ _id: new ObjectId(req.params.id) }, { $inc: { likes: 1 } }); // expect: counter-inc
    res.sendStatus(204);
  } catch (err) {
    next(err);
  }
});

// GET /posts/:postId/thread — top-level comments with their authors and the authors' badges
router.get('/posts/:postId/thread', async (req, res, next) => {
  try {
    const postId = new ObjectId(req.params.postId);
    const thread = await comments
      .aggregate([
        { $match: { postId, parentId: null } },
        { $sort: { _id: 1 } },
        { $limit: 50 },
        {
          $lookup: {
            from: 'users',
            let: { authorId: '$authorId' },
            pipeline: [
              { $match: { $expr: { $eq: ['$_id', '$$authorId'] } } },
              { $project: { name: 1, avatarUrl: 1, badgeIds: 1 } },
              {
                $lookup: { from: 'badges', localField: 'badgeIds', foreignField: '_id', as: 'badges' }, // expect: lookup-chain
              },
            ],
            as: 'author',
          },
        },
      ])
      .toArray();
    res.json(thread);
  } catch (err) {
    next(err);
  }
});

// GET /moderation/queue — flagged comments grouped by author
router.get('/moderation/queue', async (req, res, next) => {
  try {
    const queue = await comments
      .aggregate([
        { $match: { flagged: true, reviewedAt: null } },
        {
          $group: {
            _id: '$authorId',
            commentIds: { $push: '$_id' }, // ok: unbounded-push — $group accumulator, not an update
            count: { $sum: 1 },
          },
        },
        { $sort: { count: -1 } },
        { $limit: 100 },
      ])
      .toArray();
    res.json(queue);
  } catch (err) {
    next(err);
  }
});

module.exports = router;
