'use strict';

const { MongoClient } = require('mongodb');
const config = require('config');

const client = new MongoClient(process.env.MONGO_URL);
const db = client.db('shop');

const AUDIT_COLLECTION = 'audit_log';
const COLLECTION_PREFIX = 'shop_';

async function connect() {
  await client.connect();
  return db;
}

// Generic accessor used by the admin tooling; callers pass fixed names.
function collection(name) {
  return db.collection(name); // ok: dynamic-collection-name — plain parameter, no date or entity evidence
}

const audit = db.collection(AUDIT_COLLECTION); // ok: dynamic-collection-name — constant
const auditMirror = db.collection(process.env.AUDIT_MIRROR_COLLECTION); // ok: dynamic-collection-name — environment
const events = db.collection(config.get('mongo.eventsCollection')); // ok: dynamic-collection-name — configuration
const sessions = db.collection(COLLECTION_PREFIX + 'sessions'); // ok: dynamic-collection-name — fixed prefix + fixed suffix
const settings = db.collection(`${COLLECTION_PREFIX}settings`); // ok: dynamic-collection-name — fixed prefix + fixed suffix

async function close() {
  await client.close();
}

module.exports = { client, db, connect, close, collection, audit, auditMirror, events, sessions, settings };
