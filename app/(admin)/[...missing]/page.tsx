import { notFound } from 'next/navigation';

export const dynamic = 'force-dynamic';

/** Any address the console does not have: the not-found page, inside the console with its navigation. */
export default function Missing(): never {
  notFound();
}
