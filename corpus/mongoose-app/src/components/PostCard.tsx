import React from 'react';

interface Tag {
  name: string;
  slug: string;
  primary?: boolean;
}

interface PostCardProps {
  post: { title: string; slug: string; views: number; likes: string[]; tags: Tag[] };
  currentUserId?: string;
  onLike(slug: string): void;
}

export function PostCard({ post, currentUserId, onLike }: PostCardProps) {
  const liked = currentUserId ? post.likes.includes(currentUserId) : false;
  const primaryTag = post.tags.find((t) => t.primary); // Array.prototype.find, not a driver call: must stay clean
  const badges: string[] = [];
  if (post.views > 10_000) badges.push('popular'); // ok: unbounded-push — plain array
  if (post.likes.length > 500) badges.push('loved'); // ok: unbounded-push — plain array

  return (
    <article className="post-card">
      <h2>
        <a href={`/posts/${post.slug}`}>{post.title}</a>
      </h2>
      {primaryTag && <span className="tag">{primaryTag.name}</span>}
      {badges.map((b) => (
        <span key={b} className="badge">
          {b}
        </span>
      ))}
      <button type="button" aria-pressed={liked} onClick={() => onLike(post.slug)}>
        {liked ? 'Liked' : 'Like'} · {post.likes.length}
      </button>
    </article>
  );
}
