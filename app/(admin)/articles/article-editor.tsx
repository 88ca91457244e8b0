'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useDeferredValue, useState } from 'react';
import { fieldErrorsOf, formErrorOf } from '@/app/_components/errors';
import { checkWith } from '@/app/_components/form-validation';
import { Markdown } from '@/app/_components/markdown';
import { useIsAdmin } from '@/app/_components/staff-context';
import { Badge, Button, Card, ErrorNotice, PageHeader, TextAreaField, TextField } from '@/app/_components/ui';
import { useSaving } from '@/app/_components/saving';
import { sameValue } from '@/app/_components/same-value';
import { useUnsavedChanges } from '@/app/_components/unsaved';
import { useTRPC } from '@/app/_trpc/client';
import { createArticleInput, MAX_ARTICLE_BODY, updateArticleInput, type ArticleDto } from '@/server/services/articles/schemas';
import { When } from '@/app/_components/when';

type Values = { title: string; slug: string; summary: string; body: string };

/** Writes an article: Markdown on the left, the page as members see it on the right (the same renderer). */
export function ArticleEditor({ article }: { article?: ArticleDto }) {
  const trpc = useTRPC();
  const saving = useSaving();
  const queryClient = useQueryClient();
  const router = useRouter();
  const isAdmin = useIsAdmin();
  const [values, setValues] = useState<Values>({ title: article?.title ?? '', slug: article?.slug ?? '', summary: article?.summary ?? '', body: article?.body ?? '' });
  const [local, setLocal] = useState<Record<string, string>>({});
  // What was last saved (or loaded); leaving with other values asks first.
  const [baseline, setBaseline] = useState(values);
  const dirty = isAdmin && !sameValue(values, baseline);
  const preview = useDeferredValue(values.body);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.articles.list.queryKey() });
  const create = useMutation(saving(trpc.articles.create.mutationOptions({ onSuccess: async (a) => (await refresh(), router.push(`/articles/${a.id}`)) }), (a) => `Article “${a.title}” created`, { quietErrors: true }));
  const update = useMutation(
    saving(
      trpc.articles.update.mutationOptions({
        onSuccess: async (a) => {
          setBaseline(values);
          await refresh();
          await queryClient.invalidateQueries({ queryKey: trpc.articles.get.queryKey({ id: a.id }) });
        },
      }),
      (a) =>
        a.status !== article?.status
          ? a.status === 'published'
            ? `“${a.title}” published: members can read it`
            : `“${a.title}” unpublished: members no longer see it`
          : 'Article saved',
      { quietErrors: true },
    ),
  );
  useUnsavedChanges(dirty && !create.isSuccess);
  const remove = useMutation(saving(trpc.articles.delete.mutationOptions({ onSuccess: async () => (await refresh(), router.push('/articles')) }), 'Article deleted'));
  const error = create.error ?? update.error;
  const errors = { ...fieldErrorsOf(error), ...local };
  const body = { title: values.title.trim(), slug: values.slug.trim(), summary: values.summary.trim() || null, body: values.body };
  const set = (patch: Partial<Values>) => setValues((v) => ({ ...v, ...patch }));

  function save(status?: 'draft' | 'published') {
    if (article) {
      const checked = checkWith(updateArticleInput, { ...body, ...(status ? { status } : {}) });
      setLocal(checked.errors ?? {});
      if (checked.value) update.mutate({ id: article.id, changes: checked.value });
    } else {
      const checked = checkWith(createArticleInput, { ...body, status: status ?? 'draft' });
      setLocal(checked.errors ?? {});
      if (checked.value) create.mutate(checked.value);
    }
  }
  const busy = create.isPending || update.isPending;
  const published = article?.status === 'published';

  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/articles" className="text-brand-700">
          ← All articles
        </Link>
      </p>
      <PageHeader
        title={article ? article.title : 'New article'}
        description={
          article ? (
            <>
              {published ? <Badge tone="green">Published</Badge> : <Badge>Draft</Badge>}{' '}
              {article.publishedAt ? <>first published <When at={article.publishedAt} /></> : 'members cannot see it until it is published'}
            </>
          ) : (
            'Drafts are visible to staff only.'
          )
        }
      />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Write">
          <form
            className="space-y-4"
            noValidate
            aria-label="Article"
            onSubmit={(e) => {
              e.preventDefault();
              save();
            }}
          >
            <ErrorNotice error={formErrorOf(error)} />
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField label="Title" value={values.title} onChange={(e) => set({ title: e.target.value })} error={errors.title} disabled={!isAdmin} />
              <TextField label="Slug" value={values.slug} onChange={(e) => set({ slug: e.target.value })} error={errors.slug} disabled={!isAdmin} placeholder="before-surgery" />
            </div>
            <TextField label="Summary" value={values.summary} onChange={(e) => set({ summary: e.target.value })} error={errors.summary} disabled={!isAdmin} hint="Optional: one line shown in lists" />
            <TextAreaField
              label="Body (Markdown)"
              rows={18}
              value={values.body}
              onChange={(e) => set({ body: e.target.value })}
              error={errors.body}
              disabled={!isAdmin}
              hint={`${values.body.length.toLocaleString('en')} of ${MAX_ARTICLE_BODY.toLocaleString('en')} characters. Headings (#), **bold**, lists (-), links [text](https://…). HTML is not shown.`}
            />
            {isAdmin && (
              <div className="flex flex-wrap items-center gap-2">
                <Button type="submit" disabled={busy || (Boolean(article) && !dirty)} busy={busy && !update.variables?.changes.status && !create.variables?.status}>
                  {article ? 'Save changes' : 'Save draft'}
                </Button>
                {!published && (
                  <Button variant="secondary" busy={busy && (update.variables?.changes.status ?? create.variables?.status) === 'published'} onClick={() => save('published')}>
                    {article ? 'Save and publish' : 'Create and publish'}
                  </Button>
                )}
                {published && (
                  <Button variant="secondary" busy={busy && update.variables?.changes.status === 'draft'} onClick={() => save('draft')}>
                    Unpublish
                  </Button>
                )}
                {article && (
                  <Button
                    variant="danger"
                    className="ml-auto"
                    busy={remove.isPending}
                    onClick={() => {
                      if (window.confirm(`Delete “${article.title}”? This cannot be undone.`)) remove.mutate({ id: article.id });
                    }}
                  >
                    Delete
                  </Button>
                )}
                {article && dirty && !busy && <span className="text-sm text-amber-800">Unsaved changes</span>}
              </div>
            )}
          </form>
        </Card>
        <Card title="Preview">
          <article aria-label="Article preview" className="min-w-0">
            <h2 className="mb-1 text-xl font-semibold text-slate-900">{values.title || 'Untitled'}</h2>
            {values.summary && <p className="mb-4 text-sm text-slate-600">{values.summary}</p>}
            {preview.trim() ? <Markdown>{preview}</Markdown> : <p className="text-sm text-slate-600">The body appears here as members will see it.</p>}
          </article>
        </Card>
      </div>
    </>
  );
}
