'use strict';

const crypto = require('crypto');
const express = require('express');
const { ObjectId } = require('mongodb');
const { db } = require('../db');

const router = express.Router();
const users = db.collection('users');

function verifyPassword(user, password) {
  const hash = crypto.scryptSync(password, user.salt, 64).toString('hex');
  return crypto.timingSafeEqual(Buffer.from(hash), Buffer.from(user.passwordHash));
}

// POST /users/login
router.post('/login', async (req, res, next) => {
  try {
    const email = String(req.body.email).toLowerCase();
    const user = await users.findOne({ email });
    if (!user || !verifyPassword(user, req.body.password)) return res.sendStatus(401);
    await users.updateOne(
      { _id: user._id },
      {
        $set: { lastLoginAt: new Date() },
        $inc: { loginCount: 1 }, // expect: counter-inc
      },
    );
    res.json({ id: user._id, name: user.name });
  } catch (err) {
    next(err);
  }
});

// POST /users/:id/follow
router.post('/:id/follow', async (req, res, next) => {
  try {
    const me = new ObjectId(req.user.id);
    const target = new ObjectId(req.params.id);
    await users.updateOne(
      { _id: target },
      {
        "$addToSet": { "followers": me }, // expect: unbounded-push
      },
    );
    await users.updateOne(
      { _id: me },
      {
        $addToSet: { following: target }, // expect: unbounded-push
      },
    );
    res.sendStatus(204);
  } catch (err) {
    next(err);
  }
});

// POST /users/me/viewed — "recently viewed" strip, newest first, 20 entries
router.post('/me/viewed', async (req, res, next) => {
  try {
    await users.updateOne(
      { _id: new ObjectId(req.user.id) },
      {
        $push: { recentlyViewed: { $each: [new ObjectId(req.body.productId)], $position: 0, $slice: 20 } }, // ok: unbounded-push — $each + $slice
      },
    );
    res.sendStatus(204);
  } catch (err) {
    next(err);
  }
});

// POST /users/me/searches — keep the last 50 searches for suggestions
router.post('/me/searches', async (req, res, next) => {
  try {
    const q = String(req.body.q).slice(0, 200);
    await users.updateOne(
      { _id: new ObjectId(req.user.id) },
      {
        $push: { searchHistory: { $each: [{ q, at: new Date() }], $slice: -50 } }, // ok: unbounded-push — negative $slice keeps the last 50
      },
    );
    res.sendStatus(204);
  } catch (err) {
    next(err);
  }
});

// GET /users/me/cart — each user's cart lives in its own collection
router.get('/me/cart', async (req, res, next) => {
  try {
    const userId = req.user.id;
    const cart = db.collection('carts_' + userId); // expect: dynamic-collection-name
    const items = await cart.find({}).sort({ addedAt: 1 }).toArray();
    res.json(items);
  } catch (err) {
    next(err);
  }
});

// POST /users/inactive/warn — admin: flag every account idle for a year
router.post('/inactive/warn', async (req, res, next) => {
  try {
    const cutoff = new Date(Date.now() - 365 * 24 * 3600 * 1000);
    const result = await users.updateMany(  // expect: unindexed-query
      { lastLoginAt: { $lt: cutoff } },
      { $inc: { inactivityWarnings: 1 } }, // ok: counter-inc — updateMany
    );
    res.json({ warned: result.modifiedCount });
  } catch (err) {
    next(err);
  }
});

module.exports = router;
