/**
 * Lead capture for free tools: the visitor's details are stored, the download link is emailed (valid
 * for days) and a short-lived link is returned for the Download Now button. Gated tools are not
 * offered here; the gated-content work serves them to entitled members.
 */
import { itemPath } from '#shared/content/registry.ts';
import type { ContentService } from '../content/index.ts';
import type { Db } from '../platform/db/client.ts';
import type { EmailService } from '../email/index.ts';
import { AppError } from '../platform/errors.ts';
import type { FileService } from '../files/index.ts';
import { createLeadStore } from './store.ts';

const EMAIL_LINK_DAYS = 7;
const BUTTON_LINK_SECONDS = 15 * 60;

export interface LeadInput {
  name?: string;
  email: string;
  phone?: string;
  toolId: string;
}

export interface LeadServiceDeps {
  db: Db;
  content: ContentService;
  outbox: EmailService;
  downloads: FileService;
  siteUrl: string;
}

/**
 * The type whose free downloads the lead capture serves (the spec's `toolId`): the registry's
 * `download.leadWhenFree` must name this type only (service.test.ts holds them together).
 */
export const LEAD_TYPE = 'tool' as const;

export function createLeadService({ db, content, outbox, downloads, siteUrl }: LeadServiceDeps) {
  async function findTool(toolId: string) {
    const bySlug = await content.get(LEAD_TYPE, toolId);
    if (bySlug) return bySlug;
    return (await content.list(LEAD_TYPE)).find((t) => t.id === toolId);
  }

  return {
    /**
     * Records a lead and sends the download. The name may be missing: a returning visitor's browser
     * skips the form and sends only the stored email. The answer never depends on whether the
     * address is known, so this endpoint cannot be used to find out who left their details. With
     * `record: false` (a bot filled the honeypot) the answer is the same but nothing is stored or sent.
     */
    async request(input: LeadInput, meta: { ip: string; record?: boolean }): Promise<{ downloadUrl: string; toolTitle: string }> {
      const tool = await findTool(input.toolId);
      if (!tool) throw new AppError('not_found', 'tool not found');
      if (tool.accessLevel !== 'free') throw new AppError('forbidden', 'This tool is for members. Sign in to download it.');
      if (!tool.downloadUrl) throw new AppError('not_found', 'This tool has no download yet.');
      const downloadUrl = await downloads.link(tool.downloadUrl, BUTTON_LINK_SECONDS);
      if (meta.record === false) return { downloadUrl, toolTitle: tool.title };
      const emailLink = await downloads.link(tool.downloadUrl, EMAIL_LINK_DAYS * 24 * 3600);
      await db.transaction(async (tx) => {
        await createLeadStore(tx).insert({
          name: input.name ?? null,
          email: input.email,
          phone: input.phone ?? null,
          toolSlug: tool.slug,
          ip: meta.ip,
        });
        await outbox.enqueue(tx, {
          to: input.email,
          template: 'lead-download',
          data: {
            toolTitle: tool.title,
            toolUrl: `${siteUrl}${itemPath('tool', tool.slug)}`,
            downloadUrl: emailLink,
            validDays: EMAIL_LINK_DAYS,
          },
        });
      });
      return { downloadUrl, toolTitle: tool.title };
    },
  };
}

export type LeadService = ReturnType<typeof createLeadService>;
