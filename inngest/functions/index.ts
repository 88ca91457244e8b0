import { deliverWebhook } from './deliver-webhook';
import { runTransition } from './run-transition';
import { sweepDueWork } from './sweep';

export const functions = [deliverWebhook, runTransition, sweepDueWork];
