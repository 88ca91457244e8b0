import { describe, expect, it } from 'vitest';
import { postgresTarget } from './postgres-url';

describe('postgresTarget', () => {
  it('leaves a URL without libpq host parameter as it is', () => {
    const url = 'postgres://carebase:s3cret@db.internal:6432/carebase?sslmode=require';
    expect(postgresTarget(url)).toEqual({ url });
  });

  it('turns a socket directory into the socket path, on the URL port or 5432', () => {
    expect(postgresTarget('postgres://carebase@localhost/carebase?host=/var/run/postgresql')).toEqual({
      url: 'postgres://carebase@localhost/carebase',
      path: '/var/run/postgresql/.s.PGSQL.5432',
    });
    expect(postgresTarget('postgres:///carebase?host=/tmp/&sslmode=disable')).toEqual({ url: 'postgres:///carebase?sslmode=disable', path: '/tmp/.s.PGSQL.5432' });
    expect(postgresTarget('postgres://localhost:6543/carebase?host=/run/pg')).toEqual({ url: 'postgres://localhost:6543/carebase', path: '/run/pg/.s.PGSQL.6543' });
  });

  it('takes any other host parameter as the host', () => {
    expect(postgresTarget('postgres://carebase@localhost:5433/carebase?host=db.internal')).toEqual({ url: 'postgres://carebase@db.internal:5433/carebase' });
  });
});
