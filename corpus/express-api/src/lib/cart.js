'use strict';

// Pure pricing helpers: no database access in this module.

const _ = require('lodash');

const TAX_RATES = [
  { region: 'EU', rate: 0.2, currency: 'EUR' },
  { region: 'UK', rate: 0.2, currency: 'GBP' },
  { region: 'US', rate: 0, currency: 'USD' },
];

function priceCart(items, region = 'EU') {
  const tax = _.find(TAX_RATES, { region }) || TAX_RATES[0]; // lodash _.find, not a driver call: must stay clean
  const lines = [];
  for (const item of items) {
    const unit = Math.round(item.unitPrice * 100);
    lines.push({ productId: item.productId, sku: item.sku, qty: item.qty, unit }); // ok: unbounded-push — plain array
  }
  const coupon = items.find((i) => i.coupon)?.coupon; // Array.prototype.find, not a driver call: must stay clean
  const subtotal = _.sumBy(lines, (l) => l.unit * l.qty);
  const discount = coupon ? Math.round(subtotal * 0.1) : 0;
  const total = Math.round((subtotal - discount) * (1 + tax.rate));
  return { lines, subtotal, discount, total, currency: tax.currency };
}

function skipEmpty(lines) {
  return lines.filter((l) => l.qty > 0);
}

module.exports = { priceCart, skipEmpty };
