'use strict';

const express = require('express');
const { ObjectId } = require('mongodb');
const { db } = require('../db');
const { nextSequence } = require('../services/counters');
const { priceCart } = require('../lib/cart');

const router = express.Router();
const orders = db.collection('orders');
const products = db.collection('products');

// POST /orders — place an order from the cart
router.post('/', async (req, res, next) => {
  try {
    const { items, shippingAddress, region } = req.body;
    const priced = priceCart(items, region);
    const number = await nextSequence('orderNumber');
    const order = {
      number,
      customerId: new ObjectId(req.user.id),
      items: priced.lines,
      total: priced.total,
      currency: priced.currency,
      status: 'pending',
      statusHistory: [{ status: 'pending', at: new Date() }],
      shippingAddress,
      createdAt: new Date(),
    };
    const { insertedId } = await orders.insertOne(order);

    // Reserve stock: one conditional decrement per line, by the ordered quantity.
    await products.bulkWrite(
      priced.lines.map((line) => ({
        updateOne: {
          filter: { _id: new ObjectId(line.productId), stock: { $gte: line.qty } },
          update: { $inc: { stock: -line.qty } }, // ok: counter-inc — computed amount
        },
      })),
    );
    res.status(201).json({ _id: insertedId, number });
  } catch (err) {
    next(err);
  }
});

// GET /orders?offset=40&limit=20 — the signed-in customer's orders, newest first
router.get('/', async (req, res, next) => {
  try {
    const limit = Math.min(Number(req.query.limit) || 20, 100);
    const offset = Number(req.query.offset) || 0;
    const list = await orders
      .find(
        { customerId: new ObjectId(req.user.id) },
        {
          sort: { createdAt: -1 },
          skip: offset, // expect: skip-paging
          limit,
          projection: { items: 0, statusHistory: 0 },
        },
      )
      .toArray();
    res.json({ orders: list, next: list.length === limit ? offset + limit : null });
  } catch (err) {
    next(err);
  }
});

// GET /orders/recent — back-office list with the customer's name
router.get('/recent', async (req, res, next) => {
  try {
    const recent = await orders
      .aggregate([  // expect: unindexed-query
        { $match: { createdAt: { $gte: new Date(Date.now() - 24 * 3600 * 1000) } } },
        { $sort: { createdAt: -1 } },
        { $limit: 100 },
        {
          $lookup: { from: 'customers', localField: 'customerId', foreignField: '_id', as: 'customer' }, // ok: lookup-chain — a single $lookup
        },
        { $project: { number: 1, total: 1, status: 1, 'customer.name': 1 } },
      ])
      .toArray();
    res.json(recent);
  } catch (err) {
    next(err);
  }
});

// GET /orders/:id — order page: order + customer + product details
router.get('/:id', async (req, res, next) => {
  try {
    const pipeline = [
      { $match: { _id: new ObjectId(req.params.id), customerId: new ObjectId(req.user.id) } },
      {
        $lookup: { from: 'customers', localField: 'customerId', foreignField: '_id', as: 'customer' },
      },
      { $unwind: '$customer' },
      {
        $lookup: { // expect: lookup-chain
          from: 'products',
          localField: 'items.productId',
          foreignField: '_id',
          as: 'products',
        },
      },
      { $project: { 'customer.passwordHash': 0 } },
    ];
    const [order] = await orders.aggregate(pipeline).toArray();
    if (!order) return res.sendStatus(404);
    res.json(order);
  } catch (err) {
    next(err);
  }
});

// POST /orders/bulk-status — back office: move many orders to a new status
router.post('/bulk-status', async (req, res, next) => {
  try {
    const { updates } = req.body; // [{ id, status }]
    const ops = updates.map(({ id, status }) => ({
      updateOne: {
        filter: { _id: new ObjectId(id) },
        update: {
          $set: { status, updatedAt: new Date() },
          $push: { statusHistory: { status, at: new Date(), by: req.user.id } }, // expect: unbounded-push
        },
      },
    }));
    const result = await orders.bulkWrite(ops, { ordered: false });
    res.json({ modified: result.modifiedCount });
  } catch (err) {
    next(err);
  }
});

// POST /orders/:id/tracking — carrier webhook, delivers tracking scans in batches
router.post('/:id/tracking', async (req, res, next) => {
  try {
    const scans = req.body.events.map((e) => ({ code: e.code, location: e.location, at: new Date(e.timestamp) }));
    const updated = await orders.findOneAndUpdate(
      { _id: new ObjectId(req.params.id) },
      {
        $push: { trackingEvents: { $each: scans } }, // expect: unbounded-push
        $set: { lastTrackingAt: new Date() },
      },
      { returnDocument: 'after', projection: { status: 1 } },
    );
    if (!updated) return res.sendStatus(404);
    res.sendStatus(204);
  } catch (err) {
    next(err);
  }
});

module.exports = router;
