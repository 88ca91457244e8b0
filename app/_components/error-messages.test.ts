import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { messageForPeople } from './error-messages';

describe('failures said for people (server actions of /me)', () => {
  it('says what happened by code, and keeps our own conflict and validation messages', () => {
    expect(messageForPeople(new TRPCError({ code: 'NOT_FOUND', message: 'Activity not found' }))).toBe('This item no longer exists.');
    expect(messageForPeople(new TRPCError({ code: 'FORBIDDEN', message: 'A member may only mark their own activities completed' }))).toBe('You do not have permission to do this.');
    expect(messageForPeople(new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: 'db' }))).toBe('The service is busy right now. Try again in a moment.');
    expect(messageForPeople(new TRPCError({ code: 'CONFLICT', message: 'The activity is completed; only proposed or scheduled activities change' }))).toBe(
      'The activity is completed; only proposed or scheduled activities change',
    );
    // Anything else never leaks its message.
    expect(messageForPeople(new Error('relation "member" does not exist'))).toBe('Something went wrong on our side. Try again.');
  });
});
