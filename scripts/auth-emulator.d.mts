export function startAuthEmulator(options: {
  projectId: string;
  host: string;
}): Promise<{ stop: () => void; started: boolean }>;
