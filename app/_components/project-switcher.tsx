'use client';

import { useRef } from 'react';
import { switchProject } from '@/app/(admin)/actions';

export function ProjectSwitcher({ current, projects }: { current: number; projects: { id: number; name: string }[] }) {
  const form = useRef<HTMLFormElement>(null);
  return (
    <form ref={form} action={switchProject}>
      <label htmlFor="project-switcher" className="block text-xs font-medium text-slate-500">
        Project
      </label>
      <select
        id="project-switcher"
        name="projectId"
        defaultValue={current}
        onChange={() => form.current?.requestSubmit()}
        className="mt-1 block w-full rounded-md border-0 bg-white py-1.5 pl-2 pr-8 text-sm font-medium text-slate-900 ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-brand-500"
      >
        {projects.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
      <noscript>
        <button type="submit">Switch</button>
      </noscript>
    </form>
  );
}
