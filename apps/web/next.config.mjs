// The console is served by server.ts (custom server); no telemetry, no network fonts, no remote assets.
process.env.NEXT_TELEMETRY_DISABLED = '1';

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  devIndicators: false,
  images: { unoptimized: true },
  // NEXT_DIST_DIR: a private build folder (relative to apps/web), so two builds of one work tree never collide.
  distDir: process.env.NEXT_DIST_DIR || '.next',
};

export default nextConfig;
