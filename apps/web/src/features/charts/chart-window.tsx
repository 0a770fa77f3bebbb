'use client';
/** The time window every chart on a page shows (1 m / 10 m / 1 h), chosen once per page with ChartWindowPicker. */
import { createContext, useContext, useState, type ReactNode } from 'react';
import { CHART_WINDOWS, type ChartWindowId } from './chart-scale.ts';

const WindowContext = createContext<{ id: ChartWindowId; set(id: ChartWindowId): void }>({ id: '10m', set: () => {} });

export function ChartWindowProvider({ children, initial = '10m' }: { children: ReactNode; initial?: ChartWindowId }) {
  const [id, set] = useState<ChartWindowId>(initial);
  return <WindowContext.Provider value={{ id, set }}>{children}</WindowContext.Provider>;
}

export function useChartWindow(): ChartWindowId {
  return useContext(WindowContext).id;
}

export function ChartWindowPicker() {
  const { id, set } = useContext(WindowContext);
  return (
    <span className="segmented" role="group" aria-label="chart time window" data-testid="chart-window" data-window={id}>
      {CHART_WINDOWS.map((w) => (
        <button key={w.id} type="button" className={w.id === id ? 'active' : undefined} aria-pressed={w.id === id} data-testid={`chart-window-${w.id}`} onClick={() => set(w.id)}>
          {w.label}
        </button>
      ))}
    </span>
  );
}
