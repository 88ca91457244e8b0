import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events } from '@/db/schema';
import { apiClient, newProject } from '@/server/testing/api';

const eventsNamed = async (db: any, projectId: number, name: string) => db.select().from(events).where(and(eq(events.projectId, projectId), eq(events.name, name)));

const unsafeBody = '# Care\n\n<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\n[click](javascript:alert(3))';

describe('articles (CONTRACT 9)', () => {
  it('creates a draft with article_create, stores the Markdown exactly, and answers by id or slug', async () => {
    const { api, db, projectId } = await newProject();
    const res = await api.post('/article', { slug: 'before-surgery', title: 'Before surgery', summary: 'What to expect', body: unsafeBody });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get('location')).toMatch(new RegExp(`/api/v1/article/${res.body.id}$`));
    expect(res.body).toEqual({
      id: expect.any(Number),
      slug: 'before-surgery',
      title: 'Before surgery',
      summary: 'What to expect',
      body: unsafeBody,
      status: 'draft',
      publishedAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await api.get('/article/before-surgery')).body).toEqual(res.body);
    expect((await api.get(`/article/${res.body.id}`)).body).toEqual(res.body);
    const recorded = await eventsNamed(db, projectId, 'article_create');
    expect(recorded).toHaveLength(1);
    expect(recorded[0].responseData).toEqual(res.body);
  });

  it('refuses a taken slug (409), a bad slug or a body over 100,000 characters (400), changing nothing', async () => {
    const { api } = await newProject();
    expect((await api.post('/article', { slug: 'a', title: 'A', body: '' })).status).toBe(201);
    const taken = await api.post('/article', { slug: 'a', title: 'Again', body: '' });
    expect(taken.status).toBe(409);
    const bad = await api.post('/article', { slug: 'Not A Slug', title: '', body: 'x'.repeat(100_001), status: 'live' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.path).sort()).toEqual(['body', 'slug', 'status', 'title']);
    expect((await api.post('/article', { slug: 'long', title: 'Long', body: 'x'.repeat(100_000) })).status).toBe(201);
    expect((await api.get('/article')).body.map((a: any) => a.slug)).toEqual(['a', 'long']);
    const other = (await api.post('/article', { slug: 'b', title: 'B', body: '' })).body;
    expect((await api.patch(`/article/${other.id}`, { slug: 'a' })).status).toBe(409);
  });

  it('sets publishedAt the first time it is published, and keeps it through unpublishing', async () => {
    const { api } = await newProject();
    const a = (await api.post('/article', { slug: 'a', title: 'A', body: 'Hello' })).body;
    const published = (await api.patch('/article/a', { status: 'published' })).body;
    expect(published.status).toBe('published');
    expect(Date.parse(published.publishedAt)).toBeGreaterThanOrEqual(Date.parse(a.createdAt));
    const draft = (await api.patch('/article/a', { status: 'draft', title: 'A2' })).body;
    expect(draft).toMatchObject({ status: 'draft', title: 'A2', publishedAt: published.publishedAt });
    expect((await api.patch('/article/a', { status: 'published' })).body.publishedAt).toBe(published.publishedAt);
    const direct = (await api.post('/article', { slug: 'now', title: 'Now', body: '', status: 'published' })).body;
    expect(direct.publishedAt).not.toBeNull();
  });

  it('filters by status and slug; a member token reads published articles only and changes none', async () => {
    const { api } = await newProject();
    await api.post('/article', { slug: 'draft', title: 'Draft', body: '' });
    const live = (await api.post('/article', { slug: 'live', title: 'Live', body: '', status: 'published' })).body;
    expect((await api.get('/article', { status: 'draft' })).body.map((a: any) => a.slug)).toEqual(['draft']);
    expect((await api.get('/article', { slug: 'live' })).body.map((a: any) => a.slug)).toEqual(['live']);
    expect((await api.get('/article', { status: 'gone' })).status).toBe(400);
    const member = (await api.post('/member', { name: 'Pat' })).body;
    const asMember = apiClient((await api.post(`/member/${member.id}/token`)).body.token);
    expect((await asMember.get('/article')).body.map((a: any) => a.slug)).toEqual(['live']);
    expect((await asMember.get('/article/live')).body).toEqual(live);
    expect((await asMember.get('/article/draft')).status).toBe(404);
    expect((await asMember.get('/article', { status: 'draft' })).body).toEqual([]);
    expect((await asMember.post('/article', { slug: 'mine', title: 'Mine', body: '' })).status).toBe(403);
    expect((await asMember.patch('/article/live', { title: 'Mine' })).status).toBe(403);
    expect((await asMember.del('/article/live')).status).toBe(403);
  });

  it("refuses deletion while a template's latest version names it, and allows it once a new version does not", async () => {
    const { api } = await newProject();
    const article = (await api.post('/article', { slug: 'read-me', title: 'Read me', body: 'Text', status: 'published' })).body;
    const message = { key: 'read', kind: 'message', articleId: article.id, type: 'read', display: 'Read this', start: { offset: 0, offsetUnit: 'd' } };
    const def = (await api.post('/careplan-definition', { slug: 'reading', title: 'Reading', actions: [message] })).body;
    const member = (await api.post('/member', { name: 'Pat' })).body;
    const plan = (await api.post('/careplan', { definitionId: def.id, subjectId: member.id })).body;
    expect(plan.activities[0]).toMatchObject({ kind: 'message', articleId: article.id });
    const refused = await api.del('/article/read-me');
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain('reading');
    // The care plan pins version 1, so saving makes version 2 without the action.
    expect((await api.patch('/careplan-definition/reading', { actions: [] })).body.version).toBe(2);
    expect((await api.del('/article/read-me')).status).toBe(204);
    expect((await api.get('/article/read-me')).status).toBe(404);
    expect((await api.get(`/activity/${plan.activities[0].id}`)).body).toMatchObject({ kind: 'message', articleId: null, display: 'Read this' });
  });
});
