/**
 * The create form's uploads (spec point 2: several files at once): one file after another, with the
 * current file's progress (the share of its bytes sent, and which of how many it is) and Cancel,
 * which stops the file on the wire (the server deletes what it had written) and skips the rest.
 * Up to 25 MB can take minutes on a slow link, so the form shows movement from the first byte.
 */
import { useRef, useState } from 'react';
import type { MediaItem } from '#shared/content/schema.ts';
import { uploadFile } from '../../lib/browser/create.ts';
import { mediaTypeOf } from '#shared/create-form.ts';

export type UploadArea = 'public' | 'protected';

/** The file on the wire: its name, its place in the batch and the share of its bytes sent (0 to 1). */
export interface UploadProgress {
  name: string;
  index: number;
  count: number;
  sent: number;
}

/** A stored file: where it went, its URL or key, the file, and its media type (public media only). */
export interface Uploaded {
  area: UploadArea;
  url: string;
  file: File;
  mediaType: MediaItem['type'];
}

export function useUploads(onUploaded: (uploaded: Uploaded) => void) {
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [error, setError] = useState('');
  const [note, setNote] = useState('');
  const running = useRef<AbortController | null>(null);

  async function upload(files: FileList | null, area: UploadArea) {
    const list = Array.from(files ?? []);
    if (list.length === 0 || running.current) return;
    const controller = new AbortController();
    running.current = controller;
    setError('');
    setNote('');
    for (const [index, file] of list.entries()) {
      const mediaType = mediaTypeOf(file.type) ?? 'image';
      if (area === 'public' && !mediaTypeOf(file.type)) {
        setError(`${file.name}: only images, videos and PDFs can be added.`);
        continue;
      }
      setProgress({ name: file.name, index, count: list.length, sent: 0 });
      const result = await uploadFile(file, area, {
        signal: controller.signal,
        onProgress: (sent) => setProgress((p) => (p && p.index === index ? { ...p, sent } : p)),
      });
      if (result.ok) onUploaded({ area, url: result.data.url, file, mediaType });
      else if (result.kind === 'error' && result.code === 'canceled') {
        const skipped = list.length - index - 1;
        setNote(`Upload of ${file.name} canceled${skipped > 0 ? `; ${skipped} more not uploaded` : ''}.`);
        break;
      } else setError(`${file.name}: ${result.kind === 'error' ? result.message : 'the upload was refused.'}`);
    }
    running.current = null;
    setProgress(null);
  }

  return { progress, uploading: progress !== null, error, note, upload, cancel: () => running.current?.abort() };
}
