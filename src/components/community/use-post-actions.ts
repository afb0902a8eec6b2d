/**
 * What a reader does to posts, wired to the API and to the pages shown: a like changes the post in
 * place from the server's answer; an edit or a deletion reads the pages again (the server renders
 * the new HTML); a report only says thanks.
 */
import { useMemo } from 'react';
import { toast } from '../../lib/browser/toast.ts';
import { deletePost, editPost, postSource, reportPost, setLike, type Post } from './community-api.ts';
import type { PostActions } from './PostItem.tsx';

interface Pages {
  refresh: () => Promise<void>;
  patchItem: (id: string, patch: Partial<Post>) => void;
}

export function usePostActions({ refresh, patchItem }: Pages, member: boolean, staff: boolean): PostActions {
  return useMemo(
    () => ({
      member,
      staff,
      async like(post, liked) {
        const result = await setLike(post.id, liked);
        if (result.ok) patchItem(post.id, result.data);
        else toast({ title: 'Error', description: result.message, variant: 'destructive' });
      },
      async edit(post, body) {
        const result = await editPost(post.id, body);
        if (result.ok) await refresh();
        return result;
      },
      async remove(post) {
        const result = await deletePost(post.id);
        if (result.ok) await refresh();
        return result;
      },
      async report(post, reason) {
        const result = await reportPost(post.id, reason);
        return result;
      },
      async source(post) {
        const result = await postSource(post.id);
        return result.ok ? result.data.body : undefined;
      },
    }),
    [member, staff, refresh, patchItem],
  );
}
