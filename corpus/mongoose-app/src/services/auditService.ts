import mongoose from 'mongoose';
import dayjs from 'dayjs';

export interface AuditEntry {
  action: string;
  actorId: string;
  targetId?: string;
  meta?: Record<string, unknown>;
}

// Audit trail, rotated monthly so compliance can export and drop a month at a time.
export async function audit(entry: AuditEntry): Promise<void> {
  const month = dayjs().format('YYYY_MM');
  await mongoose.connection
    .collection(`audit_${month}`) // expect: dynamic-collection-name
    .insertOne({ ...entry, at: new Date() });
}

// Security events go to one fixed collection.
export async function securityEvent(entry: AuditEntry): Promise<void> {
  await mongoose.connection.collection('security_events').insertOne({ ...entry, at: new Date() }); // ok: dynamic-collection-name — literal
}
