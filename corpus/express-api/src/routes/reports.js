'use strict';

const express = require('express');
const { db } = require('../db');

const router = express.Router();
const customers = db.collection('customers');
const orders = db.collection('orders');

// GET /reports/customers?country=FR — each customer with their order count and last order
router.get('/customers', async (req, res, next) => {
  try {
    const list = await customers
      .find({ 'address.country': req.query.country }) // ok: unindexed-query — { 'address.country': 1, createdAt: -1 }
      .sort({ createdAt: -1 })
      .limit(200)
      .toArray();
    const rows = [];
    for (const c of list) {
      const count = await orders.countDocuments({ customerId: c._id }); // expect: query-in-loop
      const [last] = await orders.find({ customerId: c._id }).sort({ createdAt: -1 }).limit(1).toArray(); // expect: query-in-loop
      rows.push({ email: c.email, count, lastOrderAt: last && last.createdAt });
    }
    res.json(rows);
  } catch (err) {
    next(err);
  }
});

// POST /reports/orders/archive — marks the given orders as archived, one write per order
router.post('/orders/archive', async (req, res, next) => {
  try {
    for (const id of req.body.orderIds) {
      await orders.updateOne({ _id: id }, { $set: { archived: true } }); // expect: query-in-loop
    }
    res.sendStatus(204);
  } catch (err) {
    next(err);
  }
});

// POST /reports/orders/close — the batched form: one round trip for every order
router.post('/orders/close', async (req, res, next) => {
  try {
    await orders.bulkWrite(
      req.body.orderIds.map((id) => ({ updateOne: { filter: { _id: id }, update: { $set: { status: 'closed' } } } })), // ok: query-in-loop — bulkWrite
    );
    await orders.updateMany({ _id: { $in: req.body.orderIds } }, { $set: { closedAt: new Date() } });
    res.sendStatus(204);
  } catch (err) {
    next(err);
  }
});

// GET /reports/by-email — customers looked up by the unique e-mail index
router.get('/by-email', async (req, res, next) => {
  try {
    const c = await customers.findOne({ email: String(req.query.email).toLowerCase() }); // ok: unindexed-query — unique { email: 1 }
    const open = await orders
      .find({ status: 'open', customerId: c._id }) // ok: unindexed-query — equality prefix of { customerId: 1, createdAt: -1 }
      .toArray();
    const payments = await customers.aggregate([
      { $match: { _id: c._id } },
      {
        $lookup: {
          from: 'orders',
          localField: '_id',
          foreignField: 'customerId', // ok: lookup-unindexed-foreign-field — { customerId: 1, createdAt: -1 }
          as: 'orders',
        },
      },
    ]).toArray();
    const refunds = await orders.aggregate([
      { $match: { customerId: c._id } },
      {
        $lookup: {
          from: 'products',
          localField: 'items.sku',
          foreignField: 'sku', // expect: lookup-unindexed-foreign-field
          as: 'products',
        },
      },
    ]).toArray();
    res.json({ customer: c, open, payments, refunds });
  } catch (err) {
    next(err);
  }
});

// GET /reports/contact — a customer under either e-mail field, and the one order a list names
router.get('/contact', async (req, res, next) => {
  try {
    const emailFields = ['email', 'billing.email'];
    let found = null;
    for (const field of emailFields) {
      found = found || (await customers.findOne({ [field]: req.query.email })); // ok: query-in-loop — a list written here: two lookups
    }
    for (const o of req.body.candidates) {
      if (o.ref === req.query.ref) {
        found = await orders.findOne({ _id: o.id }); // ok: query-in-loop — runs once, then the loop breaks
        break;
      }
    }
    res.json(found);
  } catch (err) {
    next(err);
  }
});

module.exports = router;
