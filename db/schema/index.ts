export * from './projects';
export * from './members';
export * from './integrations';
export * from './records';
export * from './events';
export * from './webhooks';
export * from './identity';
export * from './careplans';
