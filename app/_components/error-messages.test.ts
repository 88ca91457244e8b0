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

describe('validation failures', () => {
  it('name the field in words', async () => {
    const { labelOf } = await import('./error-messages');
    expect(labelOf('triggers.0.event')).toBe('Triggers 1 event');
    expect(labelOf('observationCodeId')).toBe('Observation code id');
    expect(messageForPeople({ message: 'The request is invalid', data: { code: 'BAD_REQUEST', fieldErrors: [{ path: 'email', message: 'Enter an email address, like name@example.org' }] } })).toBe(
      'Email: Enter an email address, like name@example.org',
    );
  });
});

describe('JSON typed by people', () => {
  it('says where it goes wrong without the parser’s words', async () => {
    const { parseJsonObject } = await import('./errors');
    expect(parseJsonObject('{"a": 1,}').error).toMatch(/^This is not valid JSON\. Check for a missing comma/);
    expect(parseJsonObject('{"a": 1').error).toMatch(/^This is not complete JSON/);
    expect(parseJsonObject("{'a': 1}").error).toMatch(/double quotes/);
    expect(parseJsonObject('{\n"a": 1\n"b": 2}').error).toMatch(/on line 3/);
    expect(parseJsonObject('[1]').error).toBe('Must be a JSON object, like {"key": "value"}');
  });
});
