import { deliverWebhook } from './deliver-webhook';
import { sweepDueWork } from './sweep';

export const functions = [deliverWebhook, sweepDueWork];
