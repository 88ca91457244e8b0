/**
 * The value sets of the enumerated columns, in one place without any database code, so the API schemas,
 * the services and the admin UI use the same lists the tables declare.
 */
export const STAFF_ROLES = ['admin', 'coordinator'] as const;
export const OBSERVATION_TYPES = ['date', 'number', 'string', 'boolean'] as const;
export const CAREPLAN_STATUSES = ['ongoing', 'completed', 'cancelled'] as const;
export const ACTIVITY_STATUSES = ['proposed', 'scheduled', 'expired', 'completed', 'cancelled'] as const;
/** Statuses an activity can still leave on its own (transitions) or by a change. */
export const OPEN_ACTIVITY_STATUSES = ['proposed', 'scheduled'] as const;
export const NOTIFICATION_STATUSES = ['pending', 'sent', 'suppressed'] as const;
export const WEBHOOK_STRATEGIES = ['after', 'handle', 'before'] as const;
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'blocked'] as const;
/** What an activity asks of its actor (CONTRACT 9). */
export const ACTIVITY_KINDS = ['task', 'message', 'questionnaire', 'appointment'] as const;
export const ARTICLE_STATUSES = ['draft', 'published'] as const;
export const QUESTIONNAIRE_STATUSES = ['draft', 'active', 'retired'] as const;
export const RESPONSE_STATUSES = ['in-progress', 'completed', 'amended'] as const;
export const ITEM_TYPES = ['display', 'string', 'text', 'integer', 'decimal', 'boolean', 'date', 'choice'] as const;
/** Scheduling (CONTRACT 10). */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export const APPOINTMENT_STATUSES = ['booked', 'cancelled', 'fulfilled', 'noshow'] as const;
export const ENCOUNTER_STATUSES = ['planned', 'in-progress', 'finished', 'cancelled'] as const;
/** Audit trail (CONTRACT 11). */
export const AUDIT_ACTIONS = ['create', 'update', 'delete'] as const;
export const AUDIT_ACTOR_TYPES = ['user', 'integration', 'member', 'system'] as const;
/** One-time links that let a person set a password: an invitation to a project, or a reset. */
export const USER_TOKEN_KINDS = ['invite', 'reset'] as const;
