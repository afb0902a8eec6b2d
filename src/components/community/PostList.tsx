/**
 * A page of posts, oldest first: a thread's replies and an item's comments alike. Staff get each
 * post's moderation controls, a chunk loaded only for them.
 */
import { lazy, Suspense } from 'react';
import type { Post } from './community-api.ts';
import { PostItem, type PostActions } from './PostItem.tsx';

const StaffPostControls = lazy(() => import('./StaffControls.tsx').then((m) => ({ default: m.StaffPostControls })));

export function PostList({
  label,
  posts,
  actions,
  staff,
  onStaffDone,
}: {
  label: string;
  posts: Post[];
  actions: PostActions;
  staff: boolean;
  onStaffDone: () => void;
}) {
  return (
    <ol className="flex flex-col gap-4" aria-label={label}>
      {posts.map((post) => (
        <li key={post.id}>
          <PostItem
            post={post}
            actions={actions}
            staff={
              staff ? (
                <Suspense fallback={null}>
                  <StaffPostControls post={post} onDone={onStaffDone} />
                </Suspense>
              ) : undefined
            }
          />
        </li>
      ))}
    </ol>
  );
}
