/// <reference types="@webgpu/types" />
/** TF.js on its webgpu backend in Node (Dawn as navigator.gpu); resolves to TF.js's GPUDevice. */
export declare function tfjsOnWebGpu(): Promise<GPUDevice>;
