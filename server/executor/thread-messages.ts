/** What the server and the executor's thread say to each other (server/executor/thread.ts). */
export type ToThread = 'wake' | 'stop';
export type FromThread = 'started';
