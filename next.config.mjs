/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite loads its WebAssembly from node_modules; rate-limiter-flexible imports drizzle-orm at run time,
  // so both, and drizzle itself (one copy for both), load from node_modules rather than the bundle.
  serverExternalPackages: ['@electric-sql/pglite', 'rate-limiter-flexible', 'drizzle-orm'],
  poweredByHeader: false,
  typedRoutes: false,
};
export default nextConfig;
