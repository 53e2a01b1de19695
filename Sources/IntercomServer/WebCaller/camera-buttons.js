// The call view's camera buttons (issue #22): "Switch camera" cycles the device's cameras, shown only while
// the device advertises more than one; "Flip my camera" swaps this page's front and back camera, shown only
// when the browser has more than one. body[data-remote-camera] names the device's active camera and
// body[data-camera-error] the last refusal (tests read both).

import { localCameraCount } from './cameras.js';

export class CameraButtons {
  constructor({ remote, local, notice }) {
    this.remote = remote;
    this.local = local;
    this.notice = notice; // (text) => void
    this.call = null;
    this.inCall = false;
    this.localCameras = 0;
    remote.addEventListener('click', () => this.call?.switchRemoteCamera());
    local.addEventListener('click', () => {
      this.call?.switchOwnCamera().catch((e) => this.notice(`Could not switch your camera: ${e.message}`));
    });
  }

  /** A new call in the view: nothing known about either side's cameras yet. */
  reset(call) {
    this.call = call;
    this.inCall = false;
    delete document.body.dataset.remoteCamera;
    delete document.body.dataset.cameraError;
    this.render();
  }

  /** The call's state changed; the buttons show only in a call (a viewer switches nothing). */
  update(call, state) {
    if (call !== this.call) return;
    this.inCall = state === 'in-call' && call.direction !== 'watch';
    if (this.inCall && call.hasLocalVideo) {
      localCameraCount().then((n) => { this.localCameras = n; this.render(); });
    }
    this.render();
  }

  /** The device's `cameras` signal: which it has and which it films now. */
  remoteCameras(call, cameras) {
    if (call !== this.call) return;
    document.body.dataset.remoteCamera = cameras.active;
    if (cameras.names.length > 1) this.notice(`${call.remote.title} shows its ${cameras.active} camera.`);
    this.render();
  }

  /** The device refused a switch (`camera-error`); the call goes on. */
  refused(call, reason) {
    if (call !== this.call) return;
    document.body.dataset.cameraError = reason;
    this.notice(`Camera not switched: ${reason}`);
  }

  render() {
    const cameras = this.call?.remoteCameras;
    this.remote.hidden = !(this.inCall && cameras && cameras.names.length > 1);
    this.local.hidden = !(this.inCall && this.call?.hasLocalVideo && this.localCameras > 1);
  }
}
