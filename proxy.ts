import { NextResponse, type NextRequest } from 'next/server';
import { undecodablePathAnswer } from '@/server/http/undecodable-path';

/** Ahead of routing, for the REST API only: paths Next cannot decode get a problem+json 404, not a bare 500. */
export function proxy(req: NextRequest) {
  return undecodablePathAnswer(req.nextUrl.pathname) ?? NextResponse.next();
}

export const config = { matcher: '/api/v1/:path*' };
