// onnxpool: ONNX pooling operators (opset 22) compiled ahead of time with Halide.
#pragma once

#include "onnxpool/attributes.h"
#include "onnxpool/pool_operator.h"
#include "onnxpool/pooling.h"
#include "onnxpool/status.h"
#include "onnxpool/tensor.h"
#include "onnxpool/thread_pool.h"
