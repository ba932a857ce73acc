'use strict';

const { db } = require('../db');

const counters = db.collection('counters');

// Human-readable order numbers: ORD-000123.
async function nextSequence(name) {
  const doc = await counters.findOneAndUpdate(
    { _id: name },
    { $inc: { seq: 1 } }, // expect: counter-inc
    { upsert: true, returnDocument: 'after' },
  );
  return doc.seq;
}

// Importers reserve a block of numbers with one write and hand them out from memory.
async function reserveBlock(name, size) {
  const doc = await counters.findOneAndUpdate(
    { _id: name },
    { $inc: { seq: size } }, // ok: counter-inc — computed amount (block allocation)
    { upsert: true, returnDocument: 'after' },
  );
  return { first: doc.seq - size + 1, last: doc.seq };
}

function formatOrderNumber(seq) {
  return `ORD-${String(seq).padStart(6, '0')}`;
}

module.exports = { nextSequence, reserveBlock, formatOrderNumber };
