import { Request, Response } from 'express';
import { Types } from 'mongoose';
import { User } from '../models/User';
import { audit } from '../services/auditService';

type AuthedRequest = Request & { user: { id: string } };

// POST /session — the password check happens in the auth middleware
export async function login(req: Request, res: Response) {
  const email = String(req.body.email).toLowerCase();
  const user = await User.findOneAndUpdate(
    { email },
    {
      $inc: { loginCount: 1 }, // expect: counter-inc
      $set: { lastLoginAt: new Date() },
    },
    { new: true },
  );
  if (!user) return res.sendStatus(401);
  await audit({ action: 'login', actorId: String(user._id) });
  res.json({ id: user._id, name: user.name });
}

// POST /bookmarks/:postId
export async function bookmark(req: AuthedRequest, res: Response) {
  await User.updateOne(
    { _id: req.user.id },
    {
      $addToSet: { bookmarks: new Types.ObjectId(req.params.postId) }, // expect: unbounded-push
    },
  );
  res.sendStatus(204);
}

// POST /bookmarks/:postId/pin — pins a post once: the filter skips users who pinned it already, so
// the array grows by distinct posts, as with $addToSet (reported as info, like $addToSet)
export async function pin(req: AuthedRequest, res: Response) {
  const postId = new Types.ObjectId(req.params.postId);
  await User.updateOne(
    { _id: req.user.id, pinned: { $ne: postId } },
    { $push: { pinned: postId } }, // expect: unbounded-push
  );
  res.sendStatus(204);
}

// POST /users/:id/block
export async function blockUser(req: AuthedRequest, res: Response) {
  const me = await User.findById(req.user.id);
  if (!me) return res.sendStatus(401);
  me.blockedUsers.addToSet(new Types.ObjectId(req.params.id)); // expect: unbounded-push
  await me.save();
  res.sendStatus(204);
}

// POST /search/history — the last ten searches, for the search box
export async function rememberSearch(req: AuthedRequest, res: Response) {
  const q = String(req.body.q).trim().slice(0, 100);
  await User.updateOne(
    { _id: req.user.id },
    {
      $push: { recentSearches: { $each: [q], $slice: -10 } }, // ok: unbounded-push — negative $slice keeps the last 10
    },
  );
  res.sendStatus(204);
}

// GET /users/:id — public profile; adds a synthetic link for the response only
export async function getProfile(req: Request, res: Response) {
  const profile = await User.findById(req.params.id).select('name bio avatarUrl links').lean();
  if (!profile) return res.sendStatus(404);
  profile.links.push({ label: 'Posts', url: `/authors/${req.params.id}/posts` }); // ok: unbounded-push — lean object, never saved
  res.json(profile);
}

// GET /users?offset=100 — admin user list
export async function listUsers(req: Request, res: Response) {
  const offset = Number(req.query.offset ?? 0);
  const users = await User.find({}, 'name email createdAt', {
    sort: { _id: 1 },
    skip: offset, // expect: skip-paging
    limit: 100,
  });
  res.json(users);
}

// GET /users/newest — sidebar widget
export async function newestUsers(_req: Request, res: Response) {
  const users = await User.find({}, 'name avatarUrl').sort({ _id: -1 }).skip(0).limit(5); // ok: skip-paging — literal 0
  res.json(users);
}
