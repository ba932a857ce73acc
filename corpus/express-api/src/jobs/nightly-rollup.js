'use strict';

// Nightly job: folds yesterday's raw events into per-product statistics.

const cron = require('node-cron');
const dayjs = require('dayjs');
const { db } = require('../db');

const stats = db.collection('product_stats');
const jobRuns = db.collection('job_runs');

async function nightlyRollup() {
  const yesterday = dayjs().subtract(1, 'day').format('YYYY_MM_DD');
  const source = db.collection(`events_${yesterday}`); // expect: dynamic-collection-name
  const rows = await source
    .aggregate([
      { $match: { type: 'view', productId: { $exists: true } } },
      {
        $group: {
          _id: '$productId',
          views: { $sum: 1 },
          viewers: { $addToSet: '$userId' }, // ok: unbounded-push — $group accumulator
        },
      },
    ])
    .toArray();

  if (rows.length > 0) {
    await stats.bulkWrite(
      rows.map((row) => ({
        updateOne: {
          filter: { _id: row._id },
          update: {
            $inc: { views: row.views, daysWithViews: 1 }, // ok: counter-inc — periodic batch job, computed amounts
            $set: { lastViewedDay: yesterday, uniqueViewersYesterday: row.viewers.length },
          },
          upsert: true,
        },
      })),
      { ordered: false },
    );
  }

  await jobRuns.updateOne(
    { _id: 'nightly-rollup' },
    {
      $set: { lastRunAt: new Date(), lastRows: rows.length },
      $inc: { runs: 1 }, // ok: counter-inc — periodic batch job, once per night
    },
    { upsert: true },
  );
}

cron.schedule('30 2 * * *', () => {
  nightlyRollup().catch((err) => console.error('nightly rollup failed', err));
});

module.exports = { nightlyRollup };
