import { randomUUID } from 'node:crypto';
import { AppError } from '@/server/errors';
import { problemResponse } from './problem';

/**
 * A path whose percent-encoding does not decode (`/member/%FF`, a lone surrogate's bytes) names nothing:
 * 404 problem+json. Next would answer it with a bare 500 before any route handler runs, so this is
 * checked in the proxy, ahead of routing.
 */
export function undecodablePathAnswer(pathname: string): Response | null {
  try {
    decodeURIComponent(pathname);
    return null;
  } catch {
    return problemResponse(new AppError('not_found', 'The path is not validly percent-encoded UTF-8; it names nothing'), randomUUID());
  }
}
