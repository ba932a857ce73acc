'use strict';

// Run once at boot (app.js): the indexes the routes and services rely on.
const { db } = require('./db');

async function ensureIndexes() {
  await db.collection('orders').createIndexes([
    { key: { customerId: 1, createdAt: -1 }, name: 'customer_recent' },
    { key: { status: 1, createdAt: -1 }, name: 'status_recent' },
    { key: { customerId: 1 }, name: 'customer' }, // expect: redundant-index
  ]);
  await db.collection('products').createIndex({ slug: 1 }, { unique: true });
  await db.collection('products').createIndex({ slug: 1, status: 1 }); // ok: redundant-index — the shorter index is unique, it stays
  await db.collection('products').createIndex({ categoryId: 1, price: 1 });
  await db.collection('products').createIndex({ status: 1, soldLast30d: -1 });
  await db.collection('products').createIndex({ name: 'text', description: 'text' });
  await db.collection('users').createIndex({ email: 1 }, { unique: true, collation: { locale: 'en', strength: 2 } });
  await db.collection('users').createIndex({ email: 1, lastLoginAt: -1 }); // ok: redundant-index — a different index from the unique one with a collation
  await db.collection('customers').createIndex({ email: 1 }, { unique: true });
  await db.collection('customers').createIndex({ 'address.country': 1, createdAt: -1 });
}

module.exports = { ensureIndexes };
