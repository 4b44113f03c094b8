export function startAuthEmulator(options: {
  projectId: string;
  host: string;
}): Promise<{ stop: () => Promise<void>; started: boolean }>;
