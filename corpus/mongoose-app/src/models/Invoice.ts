import mongoose, { Schema, Model } from 'mongoose';

export interface IInvoice {
  number: string;
  customer: { name: string; email: string };
  lines: { description: string; qty: number; unitCents: number }[];
  totalCents: number;
  status: 'draft' | 'open' | 'paid' | 'void';
  dueAt: Date;
}

export const InvoiceSchema = new Schema<IInvoice>(
  {
    number: { type: String, required: true },
    customer: { name: String, email: String },
    lines: [{ description: String, qty: Number, unitCents: Number }],
    totalCents: Number,
    status: { type: String, enum: ['draft', 'open', 'paid', 'void'], default: 'draft' },
    dueAt: Date,
  },
  { timestamps: true },
);

// Single-tenant deployments point this at their own collection through the environment.
export const Invoice = mongoose.model<IInvoice>('Invoice', InvoiceSchema, process.env.INVOICE_COLLECTION); // ok: dynamic-collection-name — environment

// Multi-tenant deployments: one model, and so one collection, per organisation.
const perOrgModels = new Map<string, Model<IInvoice>>();

export function invoiceModelFor(orgId: string): Model<IInvoice> {
  let m = perOrgModels.get(orgId);
  if (!m) {
    m = mongoose.model<IInvoice>(`Invoice_${orgId}`, InvoiceSchema); // expect: dynamic-collection-name
    perOrgModels.set(orgId, m);
  }
  return m;
}
