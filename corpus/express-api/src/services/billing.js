'use strict';

const { ObjectId } = require('mongodb');
const { db } = require('../db');

// Double-entry ledger, one collection per account (legacy design from the v1 billing service).
async function postEntry(accountId, entry) {
  const ledger = db.collection('ledger_' + accountId); // expect: dynamic-collection-name
  await ledger.insertOne({ ...entry, postedAt: new Date() });
}

async function openInvoices(customerId) {
  return db
    .collection(`invoices_${customerId}`) // expect: dynamic-collection-name
    .find({ status: 'open' })
    .sort({ dueAt: 1 })
    .toArray();
}

// Credit notes were migrated to a single collection keyed by customer.
async function creditNotes(customerId) {
  return db
    .collection('credit_notes') // ok: dynamic-collection-name — literal name, customer is a field
    .find({ customerId: new ObjectId(customerId) })
    .sort({ issuedAt: -1 })
    .limit(50)
    .toArray();
}

module.exports = { postEntry, openInvoices, creditNotes };
