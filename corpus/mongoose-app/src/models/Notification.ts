import mongoose, { Schema, Types } from 'mongoose';

export interface InboxItem {
  kind: 'like' | 'comment' | 'follow';
  actor: Types.ObjectId;
  post?: Types.ObjectId;
  at: Date;
}

// One inbox document per user, holding the latest notifications only.
const inboxSchema = new Schema({
  _id: { type: Schema.Types.ObjectId, ref: 'User' },
  items: [{ kind: String, actor: Schema.Types.ObjectId, post: Schema.Types.ObjectId, at: Date }],
  hasUnread: { type: Boolean, default: false },
});

export const Inbox = mongoose.model('Inbox', inboxSchema);

// Full activity history per user, used by the "your activity" page.
const activityLogSchema = new Schema({
  _id: { type: Schema.Types.ObjectId, ref: 'User' },
  entries: [{ action: String, target: Schema.Types.ObjectId, at: Date }],
});

export const ActivityLog = mongoose.model('ActivityLog', activityLogSchema);

export async function notify(userId: Types.ObjectId, item: InboxItem): Promise<void> {
  await Inbox.updateOne(
    { _id: userId },
    {
      $push: { items: { $each: [item], $slice: -100 } }, // ok: unbounded-push — negative $slice keeps the newest 100
      $set: { hasUnread: true },
    },
    { upsert: true },
  );
}

export async function logActivity(userId: Types.ObjectId, action: string, target: Types.ObjectId): Promise<void> {
  await ActivityLog.findByIdAndUpdate(
    userId,
    {
      $push: { entries: { action, target, at: new Date() } }, // expect: unbounded-push
    },
    { upsert: true },
  );
}

export async function markRead(userId: Types.ObjectId): Promise<void> {
  await Inbox.updateOne({ _id: userId }, { $set: { hasUnread: false } });
}
