import { Post } from '../models/Post';

// Scheduled by the worker process once a night (see worker.ts).
export async function nightlyRollup(): Promise<void> {
  const since = new Date(Date.now() - 24 * 3600 * 1000);
  const [best] = await Post.aggregate([
    { $match: { published: true, publishedAt: { $gte: since } } },
    { $project: { score: { $add: [{ $size: '$likes' }, { $multiply: [{ $size: '$comments' }, 3] }] } } },
    { $sort: { score: -1 } },
    { $limit: 1 },
  ]);
  if (!best) return;
  await Post.updateOne(
    { _id: best._id },
    {
      $inc: { timesPostOfTheDay: 1 }, // ok: counter-inc — nightly job, once per day
      $set: { postOfTheDayAt: new Date() },
    },
  );
}
