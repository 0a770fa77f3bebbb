import { RecorderTimeline } from '../../features/recorder/recorder-timeline.tsx';

export const metadata = { title: 'Flight recorder · nodelet console' };

export default function RecorderPage() {
  return <RecorderTimeline title="Flight recorder: every lifecycle decision on this node" showPod />;
}
