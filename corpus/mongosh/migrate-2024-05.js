// migrate-2024-05.js — May 2024 data migration for the shop database.
//
//   mongosh "$MONGO_URL" --eval 'var dryRun = true' migrate-2024-05.js
//
// 1. Check, then fold the legacy per-day event collections (events_YYYY_MM_DD) into `events`.
// 2. Move orders older than six months to the archive.
// 3. Backfill `currency` on old orders, close stale shipments, default roles.
// 4. Align the invoice counter with the imported invoices.
// 5. Print the purchase report for the release notes, create indexes.

db = db.getSiblingDB('shop');

const DRY_RUN = typeof dryRun !== 'undefined' && dryRun;
const BATCH = 1000;

// ---- 1. legacy per-day event collections --------------------------------------------------

print('April per-day event collections:');
for (let d = new Date('2024-04-01T00:00:00Z'); d.getUTCMonth() === 3; d.setUTCDate(d.getUTCDate() + 1)) {
  const day = d.toISOString().slice(0, 10).replace(/-/g, '_');
  const n = db.getCollection('events_' + day).estimatedDocumentCount(); // expect: dynamic-collection-name
  print(`  ${day}: ${n}`);
}

const legacy = db.getCollectionNames().filter((name) => /^events_\d{4}_\d{2}_\d{2}$/.test(name));
for (const name of legacy) {
  db.getCollection(name).aggregate([ // ok: dynamic-collection-name — name listed from the server, not built from a date
    { $set: { legacySource: name } },
    { $merge: { into: 'events', on: '_id', whenMatched: 'keepExisting', whenNotMatched: 'insert' } },
  ]);
  if (!DRY_RUN) db.getCollection(name).drop();
}

// ---- 2. archive old orders ------------------------------------------------------------------

const cutoff = new Date();
cutoff.setUTCMonth(cutoff.getUTCMonth() - 6);
const month = cutoff.toISOString().slice(0, 7).replace('-', '_');
const archive = db[`orders_archive_${month}`]; // expect: dynamic-collection-name
const closed = { createdAt: { $lt: cutoff }, status: { $in: ['delivered', 'cancelled'] } };

db.orders.aggregate([{ $match: closed }, { $merge: { into: archive.getName() } }]);
if (!DRY_RUN) {
  const removed = db.orders.deleteMany(closed).deletedCount;
  db['audit_log'].insertOne({ action: 'archive-orders', removed, at: new Date() }); // ok: dynamic-collection-name — literal name
}

// ---- 3. backfills ---------------------------------------------------------------------------

// 3a. currency on orders created before multi-currency support
for (let page = 0; ; page++) {
  const batch = db.orders
    .find({ currency: { $exists: false } }, { _id: 1, 'shippingAddress.country': 1 })
    .sort({ _id: 1 })
    .skip(page * BATCH) // expect: skip-paging
    .limit(BATCH)
    .toArray();
  if (batch.length === 0) break;
  db.orders.bulkWrite(
    batch.map((o) => ({
      updateOne: {
        filter: { _id: o._id },
        update: { $set: { currency: o.shippingAddress && o.shippingAddress.country === 'GB' ? 'GBP' : 'EUR' } },
      },
    })),
  );
}

// 3b. the same for users without `roles`, resumed from the last _id seen
let lastId = ObjectId('000000000000000000000000');
for (;;) {
  const batch = db.users
    .find({ _id: { $gt: lastId }, roles: { $exists: false } }, { _id: 1 }) // ok: skip-paging — keyset batching
    .sort({ _id: 1 })
    .limit(BATCH)
    .toArray();
  if (batch.length === 0) break;
  db.users.updateMany({ _id: { $in: batch.map((u) => u._id) } }, { $set: { roles: [] } });
  lastId = batch[batch.length - 1]._id;
}

// 3c. accounts without a role get the default one
db.users.updateMany(
  { roles: { $size: 0 } },
  {
    $push: { roles: 'customer' }, // ok: unbounded-push — filter pins the array at size 0
  },
);

// 3d. shipments the carrier never confirmed are marked delivered
db.orders.updateMany(
  { status: 'shipped', shippedAt: { $lt: cutoff } },
  {
    $set: { status: 'delivered' },
    $push: { statusHistory: { status: 'delivered', at: new Date(), by: 'migrate-2024-05' } }, // ok: unbounded-push — a migration writes once; the application's own $push (express-api's orders route) grows the array
  },
);

// 3e. note the backfill on the order, while its audit trail has room
db.orders.updateMany(
  { currency: 'EUR', 'auditTrail.19': { $exists: false } },
  {
    $push: { auditTrail: { event: 'currency-backfilled', at: new Date() } }, // ok: unbounded-push — "auditTrail.19" filter caps the array
  },
);

// ---- 4. counters ----------------------------------------------------------------------------

const imported = db.legacy_invoices.countDocuments({ importedAt: { $exists: false } });
db.counters.updateOne(
  { _id: 'invoiceNumber' },
  { $inc: { seq: imported } }, // ok: counter-inc — computed amount
  { upsert: true },
);
db.getCollection('counters').updateOne(
  { _id: 'schemaVersion' },
  { $inc: { value: 1 } }, // ok: counter-inc — runs once per migration, not per event
  { upsert: true },
);

// ---- 5. report and indexes ------------------------------------------------------------------

const report = db.events
  .aggregate([
    { $match: { type: 'purchase', createdAt: { $gte: ISODate('2024-04-01T00:00:00Z') } } },
    { $lookup: { from: 'users', localField: 'userId', foreignField: '_id', as: 'user' } },
    { $lookup: { from: 'products', localField: 'productId', foreignField: '_id', as: 'product' } }, // expect: lookup-chain
    { $lookup: { from: 'orders', localField: 'orderId', foreignField: '_id', as: 'order' } },
    { $unwind: '$product' },
    {
      $group: {
        _id: '$product.categoryId',
        buyers: { $addToSet: '$userId' }, // ok: unbounded-push — $group accumulator
        revenue: { $sum: '$amount' },
      },
    },
  ])
  .toArray();
printjson(report.map((r) => ({ category: r._id, buyers: r.buyers.length, revenue: r.revenue })));

const missingCustomers = db['orders']
  .aggregate([
    { $match: { createdAt: { $gte: cutoff } } },
    { $lookup: { from: 'customers', localField: 'customerId', foreignField: '_id', as: 'c' } }, // ok: lookup-chain — a single $lookup
    { $match: { c: { $size: 0 } } },
    { $count: 'n' },
  ])
  .toArray();
printjson(missingCustomers);

if (!DRY_RUN) {
  db.events.createIndex({ type: 1, createdAt: -1 });
  db.events.createIndex({ createdAt: 1 }, { expireAfterSeconds: 60 * 60 * 24 * 400 });
}
print('migrate-2024-05 done' + (DRY_RUN ? ' (dry run)' : ''));
