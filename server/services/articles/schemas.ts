import { z } from 'zod';
import { ARTICLE_STATUSES } from '@/db/schema/enums';
import { idSchema } from '@/server/core/ids';
import { slugPattern } from '@/server/core/names';
import { timestampSchema } from '@/server/core/time';

export { ARTICLE_STATUSES };
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];

/** CONTRACT 9: bodies are Markdown (CommonMark), at most 100,000 characters, stored exactly as sent. */
export const MAX_ARTICLE_BODY = 100_000;

const slug = z.string().regex(slugPattern, 'Lower-case letters, digits and -, at most 64, starting with a letter or digit');
const fields = {
  slug,
  title: z.string().trim().min(1, 'Give the article a title').max(200),
  summary: z.string().max(500).nullable().optional().meta({ description: 'A line shown in lists' }),
  body: z.string().max(MAX_ARTICLE_BODY, `At most ${MAX_ARTICLE_BODY.toLocaleString('en')} characters`).meta({ description: 'Markdown (CommonMark); rendered without raw HTML' }),
  status: z.enum(ARTICLE_STATUSES),
};

export const createArticleInput = z
  .object({ ...fields, status: fields.status.default('draft') })
  .strict()
  .meta({ id: 'ArticleCreate' });
export type CreateArticleInput = z.output<typeof createArticleInput>;

export const updateArticleInput = z
  .object(fields)
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Give at least one field to change' })
  .meta({ id: 'ArticleUpdate' });
export type UpdateArticleInput = z.output<typeof updateArticleInput>;

export const articleSchema = z
  .object({
    id: idSchema,
    slug: z.string(),
    title: z.string(),
    summary: z.string().nullable(),
    body: z.string(),
    status: z.enum(ARTICLE_STATUSES),
    publishedAt: timestampSchema.nullable().meta({ description: 'When it first became published' }),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Article' });
export type ArticleDto = z.infer<typeof articleSchema>;

export const listArticlesQuery = z.object({ status: z.enum(ARTICLE_STATUSES).optional(), slug: z.string().max(64).optional() });
