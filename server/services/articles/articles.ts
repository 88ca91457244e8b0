import { and, asc, eq, gt, type SQL } from 'drizzle-orm';
import { articles } from '@/db/schema';
import { requireAdmin, requireReadEverything } from '@/server/auth/guards';
import { audit } from '@/server/audit/audit';
import { withTransaction, type ServiceContext } from '@/server/context';
import { FIRST_PAGE, fetchSize, toPaged, type Page, type Paged } from '@/server/core/page';
import { iso, isoOrNull } from '@/server/core/time';
import { conflict, notFound, uniqueViolation } from '@/server/errors';
import { emit } from '@/server/events/emit';
import { definitionNaming } from '@/server/services/careplans/definitions';
import { idOrSlugWhere, preferExactId, searchWhere } from '@/server/services/shared';
import { type ArticleDto, type ArticleStatus, type CreateArticleInput, type UpdateArticleInput } from './schemas';

type ArticleRow = typeof articles.$inferSelect;

export const toArticleDto = (a: ArticleRow): ArticleDto => ({
  id: a.id,
  slug: a.slug,
  title: a.title,
  summary: a.summary,
  body: a.body,
  status: a.status,
  publishedAt: isoOrNull(a.publishedAt),
  createdAt: iso(a.createdAt),
  updatedAt: iso(a.updatedAt),
});

function slugTaken(e: unknown): never {
  if (uniqueViolation(e) !== undefined) throw conflict('An article with this slug exists', 'slug');
  throw e;
}

/** Staff and integrations read every article; a member token only published ones (the rest are 404). */
function visibleTo(ctx: ServiceContext): SQL {
  if (ctx.actor.kind === 'member') return and(eq(articles.projectId, ctx.projectId), eq(articles.status, 'published'))!;
  requireReadEverything(ctx);
  return eq(articles.projectId, ctx.projectId);
}

export async function createArticle(ctx: ServiceContext, input: CreateArticleInput): Promise<ArticleDto> {
  requireAdmin(ctx);
  return emit(ctx, 'article_create', input, async (tx) => {
    const now = tx.clock();
    const [row] = await tx.db
      .insert(articles)
      .values({ projectId: ctx.projectId, ...input, summary: input.summary ?? null, publishedAt: input.status === 'published' ? now : null, createdAt: now, updatedAt: now })
      .returning()
      .catch(slugTaken);
    const dto = toArticleDto(row!);
    await audit(tx, { action: 'create', resource: 'article', resourceId: dto.id, after: dto });
    return dto;
  });
}

export async function listArticles(ctx: ServiceContext, query: { status?: ArticleStatus; slug?: string; search?: string }, page: Page = FIRST_PAGE): Promise<Paged<ArticleDto>> {
  const rows = await ctx.db
    .select()
    .from(articles)
    .where(
      and(
        visibleTo(ctx),
        gt(articles.id, page.afterId),
        query.status ? eq(articles.status, query.status) : undefined,
        query.slug ? eq(articles.slug, query.slug) : undefined,
        searchWhere(query.search, articles.slug, articles.title),
      ),
    )
    .orderBy(asc(articles.id))
    .limit(fetchSize(page));
  return toPaged(rows, page, toArticleDto);
}

async function findArticle(ctx: ServiceContext, idOrSlug: string): Promise<ArticleRow> {
  const rows = await ctx.db.select().from(articles).where(and(visibleTo(ctx), idOrSlugWhere(articles.id, articles.slug, idOrSlug)));
  const row = preferExactId(rows, idOrSlug);
  if (!row) throw notFound('Article');
  return row;
}

export async function getArticle(ctx: ServiceContext, idOrSlug: string): Promise<ArticleDto> {
  return toArticleDto(await findArticle(ctx, idOrSlug));
}

/** The spec names no event for changing or deleting an article, so these run without webhooks. */
export async function updateArticle(ctx: ServiceContext, idOrSlug: string, input: UpdateArticleInput): Promise<ArticleDto> {
  requireAdmin(ctx);
  const found = await findArticle(ctx, idOrSlug);
  const now = ctx.clock();
  return withTransaction(ctx, async (tx) => {
    const [current] = await tx.db.select().from(articles).where(eq(articles.id, found.id)).for('update');
    if (!current) throw notFound('Article');
    const [row] = await tx.db
      .update(articles)
      .set({ ...input, updatedAt: now, ...(input.status === 'published' && !current.publishedAt ? { publishedAt: now } : {}) })
      .where(eq(articles.id, current.id))
      .returning()
      .catch(slugTaken);
    const dto = toArticleDto(row!);
    await audit(tx, { action: 'update', resource: 'article', resourceId: dto.id, before: toArticleDto(current), after: dto });
    return dto;
  });
}

/** 409 while an action of a definition's latest version names it; activities keep their text, without the link. */
export async function deleteArticle(ctx: ServiceContext, idOrSlug: string): Promise<void> {
  requireAdmin(ctx);
  const current = await findArticle(ctx, idOrSlug);
  const definition = await definitionNaming(ctx, 'articleId', current.id);
  if (definition) throw conflict(`The latest version of template ${definition} names this article`);
  await withTransaction(ctx, async (tx) => {
    const [row] = await tx.db.delete(articles).where(eq(articles.id, current.id)).returning();
    if (!row) throw notFound('Article');
    await audit(tx, { action: 'delete', resource: 'article', resourceId: row.id, before: toArticleDto(row) });
  });
}
