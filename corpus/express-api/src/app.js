'use strict';

const express = require('express');
const { connect } = require('./db');
const orders = require('./routes/orders');
const products = require('./routes/products');
const users = require('./routes/users');
const comments = require('./routes/comments');
const { trackEvent } = require('./services/analytics');
require('./jobs/nightly-rollup');

const app = express();
app.use(express.json({ limit: '256kb' }));

// Every request is recorded as an analytics event (fire and forget).
app.use((req, res, next) => {
  res.on('finish', () => {
    trackEvent({ type: 'http', path: req.path, status: res.statusCode, userId: req.user?.id }).catch(() => {});
  });
  next();
});

app.use('/orders', orders);
app.use('/products', products);
app.use('/users', users);
app.use('/', comments);

app.use((err, req, res, next) => {
  console.error(err);
  res.status(err.status || 500).json({ error: err.expose ? err.message : 'internal error' });
});

connect().then(() => {
  app.listen(process.env.PORT || 3000, () => console.log('shop-api listening'));
});
