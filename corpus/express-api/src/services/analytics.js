'use strict';

const dayjs = require('dayjs');
const { db, events } = require('../db');

// Raw events: one collection per day, so old days can be dropped.
async function trackEvent(event) {
  const day = new Date().toISOString().slice(0, 10).replace(/-/g, '_');
  await db.collection(`events_${day}`).insertOne({ ...event, at: new Date() }); // expect: dynamic-collection-name
}

async function trackPageView(path, userId) {
  await db
    .collection('pageviews_' + new Date().toISOString().slice(0, 10)) // expect: dynamic-collection-name
    .insertOne({ path, userId, at: new Date() });
}

// Monthly metric documents, e.g. metrics_2024_5.
async function recordMetric(name, value) {
  const now = new Date();
  const metrics = db.collection(`metrics_${now.getFullYear()}_${now.getMonth() + 1}`); // expect: dynamic-collection-name
  await metrics.updateOne(
    { name },
    { $set: { last: value, updatedAt: now }, $max: { peak: value } },
    { upsert: true },
  );
}

async function appendLog(level, message, meta) {
  const logs = db.collection(`logs_${dayjs().format('YYYY_MM')}`); // expect: dynamic-collection-name
  await logs.insertOne({ level, message, meta, at: new Date() });
}

// White-label customers get their own event stream.
async function trackTenantEvent(tenantId, event) {
  await db.collection(`tenant_${tenantId}_events`).insertOne({ ...event, at: new Date() }); // expect: dynamic-collection-name
}

// New code path: one collection, tenant as a field, expiry by TTL index.
async function recordEvent(tenantId, event) {
  await events.insertOne({ ...event, tenantId, createdAt: new Date() }); // ok: dynamic-collection-name — name from configuration
}

// Purchases dashboard: one page of rows plus top products, in one round trip.
async function purchasesDashboard(tenantId, { from, to, page = 1, pageSize = 25 }) {
  const [result] = await events
    .aggregate([
      { $match: { tenantId, type: 'purchase', createdAt: { $gte: from, $lt: to } } },
      { $sort: { createdAt: -1 } },
      {
        $facet: {
          total: [{ $count: 'n' }],
          rows: [
            { $skip: (page - 1) * pageSize }, // expect: skip-paging
            { $limit: pageSize },
            {
              $lookup: { from: 'users', localField: 'userId', foreignField: '_id', as: 'user' },
            },
          ],
          topProducts: [
            { $group: { _id: '$productId', buyers: { $push: '$userId' }, n: { $sum: 1 } } }, // ok: unbounded-push — $group accumulator
            { $sort: { n: -1 } },
            { $limit: 10 },
            {
              $lookup: { from: 'products', localField: '_id', foreignField: '_id', as: 'product' }, // expect: lookup-chain
            },
          ],
        },
      },
    ])
    .toArray();
  return result;
}

// Signups per campaign; the campaign join is appended to the base pipeline.
async function signupsByCampaign({ from, to }) {
  const pipeline = [
    { $match: { type: 'signup', createdAt: { $gte: from, $lt: to } } },
    { $lookup: { from: 'users', localField: 'userId', foreignField: '_id', as: 'user' } },
    { $unwind: '$user' },
  ];
  pipeline.push({
    $lookup: { from: 'campaigns', localField: 'user.campaignId', foreignField: '_id', as: 'campaign' }, // expect: lookup-chain
  });
  pipeline.push({ $group: { _id: '$campaign.name', signups: { $sum: 1 } } });
  return events.aggregate(pipeline).toArray();
}

// Top referrers with the referring site's display name.
async function topReferrers({ from, to }) {
  return events
    .aggregate([
      { $match: { type: 'http', createdAt: { $gte: from, $lt: to }, referrerId: { $ne: null } } },
      { $group: { _id: '$referrerId', hits: { $sum: 1 } } },
      { $sort: { hits: -1 } },
      { $limit: 20 },
      {
        $lookup: { from: 'referrers', localField: '_id', foreignField: '_id', as: 'referrer' }, // ok: lookup-chain — a single $lookup
      },
    ])
    .toArray();
}

module.exports = {
  trackEvent,
  trackPageView,
  recordMetric,
  appendLog,
  trackTenantEvent,
  recordEvent,
  purchasesDashboard,
  signupsByCampaign,
  topReferrers,
};
