'use strict';

const express = require('express');
const { ObjectId } = require('mongodb');
const { db } = require('../db');

const router = express.Router();
const products = db.collection('products');

const PAGE_SIZE = 24;

// GET /products?category=..&page=3 — catalogue listing
router.get('/', async (req, res, next) => {
  try {
    const page = Math.max(Number(req.query.page) || 1, 1);
    const filter = { status: 'active' };
    if (req.query.category) filter.categoryId = new ObjectId(req.query.category);
    const items = await products
      .find(filter, { projection: { name: 1, slug: 1, price: 1, images: { $slice: 1 } } })  // expect: unindexed-query
      .sort({ createdAt: -1 })
      .skip((page - 1) * PAGE_SIZE) // expect: skip-paging
      .limit(PAGE_SIZE)
      .toArray();
    res.json({ page, items });
  } catch (err) {
    next(err);
  }
});

// GET /products/feed?after=<id> — infinite scroll for the mobile app
router.get('/feed', async (req, res, next) => {
  try {
    const filter = { status: 'active' };
    if (req.query.after) filter._id = { $lt: new ObjectId(req.query.after) }; // ok: skip-paging — keyset paging
    const items = await products.find(filter).sort({ _id: -1 }).limit(PAGE_SIZE).toArray();  // expect: unindexed-query
    const next = items.length === PAGE_SIZE ? items[items.length - 1]._id : null;
    res.json({ items, next });
  } catch (err) {
    next(err);
  }
});

// GET /products/featured — home page carousel
router.get('/featured', async (req, res, next) => {
  try {
    const hero = await products.find({ featured: true }).sort({ rank: 1 }).limit(10).toArray();  // expect: unindexed-query
    // The ten best sellers are already in the hero carousel; the grid shows the next twenty.
    const grid = await products
      .find({ status: 'active' })
      .sort({ soldLast30d: -1 })
      .skip(10) // ok: skip-paging — literal skip
      .limit(20)
      .toArray();
    res.json({ hero, grid });
  } catch (err) {
    next(err);
  }
});

// GET /products/shops/:shop — marketplace: each seller's catalogue
router.get('/shops/:shop', async (req, res, next) => {
  try {
    const { shop } = req.params;
    const catalogue = db.collection(`${shop}_products`); // expect: dynamic-collection-name
    const items = await catalogue.find({ status: 'active' }).sort({ name: 1 }).limit(100).toArray();
    res.json(items);
  } catch (err) {
    next(err);
  }
});

// GET /products/:slug — product page; counts a view on every request
router.get('/:slug', async (req, res, next) => {
  try {
    const product = await products.findOneAndUpdate(
      { slug: req.params.slug },
      { $inc: { views: 1 } }, // expect: counter-inc
      { returnDocument: 'after', projection: { costPrice: 0 } },
    );
    if (!product) return res.sendStatus(404);
    res.json(product);
  } catch (err) {
    next(err);
  }
});

// PUT /products/:id/price — merchandising changes a price; keep the last 100 prices
router.put('/:id/price', async (req, res, next) => {
  try {
    const price = Number(req.body.price);
    const id = new ObjectId(req.params.id);
    const result = await products.updateOne(
      { _id: id, 'priceHistory.99': { $exists: false } },
      {
        $set: { price, updatedAt: new Date() },
        $push: { priceHistory: { price, at: new Date(), by: req.user.id } }, // ok: unbounded-push — "priceHistory.99" filter caps the array
      },
    );
    if (result.matchedCount === 0) {
      // history full: rotate it, keeping the newest 99 entries
      await products.updateOne(
        { _id: id },
        {
          $set: { price, updatedAt: new Date() },
          $push: { priceHistory: { $each: [{ price, at: new Date(), by: req.user.id }], $slice: -100 } }, // ok: unbounded-push — $each + $slice
        },
      );
    }
    res.sendStatus(204);
  } catch (err) {
    next(err);
  }
});

// POST /products/:id/also-bought — recommendations, at most 50 per product
router.post('/:id/also-bought', async (req, res, next) => {
  try {
    await products.updateOne(
      { _id: new ObjectId(req.params.id), $expr: { $lt: [{ $size: '$alsoBought' }, 50] } },
      {
        $push: { alsoBought: new ObjectId(req.body.productId) }, // ok: unbounded-push — $expr/$size filter caps the array at 50
      },
    );
    res.sendStatus(204);
  } catch (err) {
    next(err);
  }
});

// POST /products/reprice — bump the catalogue version of a whole category
router.post('/reprice', async (req, res, next) => {
  try {
    const result = await products.updateMany(
      { categoryId: new ObjectId(req.body.categoryId) },
      { $inc: { catalogVersion: 1 }, $set: { repricedAt: new Date() } }, // ok: counter-inc — updateMany, not one hot document
    );
    res.json({ modified: result.modifiedCount });
  } catch (err) {
    next(err);
  }
});

module.exports = router;
