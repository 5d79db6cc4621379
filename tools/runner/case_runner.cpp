#include "case_runner.h"

#include <system_error>
#include <vector>

#include "case_files.h"
#include "host_tensor.h"
#include "onnx_messages.h"
#include "onnxpool/onnxpool.h"
#include "pool_operators.h"
#include "printable.h"
#include "tensor_compare.h"
#include "tolerance_overrides.h"

namespace onnxpool_runner {

namespace fs = std::filesystem;

namespace {

// What a single-node pooling model asks for, checked once per case.
struct PoolNode {
  const PoolOperator* op = nullptr;
  onnxpool::PoolAttributes attributes;
  size_t graph_input_count = 0;    // graph inputs that are not initializers
  size_t x_input_index = 0;        // which input_K.pb holds X
  std::vector<std::string> node_outputs;        // "" where an optional output is left out
  std::vector<std::string> graph_outputs;       // output_K.pb names, in order
  std::vector<size_t> node_output_of_graph_output;
};

// Outputs were computed (and can be written) even when they do not match.
struct DataSetOutcome {
  bool computed = false;
  std::vector<HostTensor> graph_outputs;
  std::string failure;
};

// onnxpool's ElementType uses TensorProto.DataType values; only these exist.
bool to_element_type(int32_t data_type, onnxpool::ElementType* type) {
  switch (data_type) {
    case onnx::TensorProto::FLOAT: case onnx::TensorProto::UINT8: case onnx::TensorProto::INT8: case onnx::TensorProto::INT64:
    case onnx::TensorProto::FLOAT16: case onnx::TensorProto::DOUBLE: case onnx::TensorProto::BFLOAT16:
      *type = static_cast<onnxpool::ElementType>(data_type);
      return true;
    default:
      return false;
  }
}

const char* status_code_name(onnxpool::StatusCode code) {
  switch (code) {
    case onnxpool::StatusCode::kOk: return "ok";
    case onnxpool::StatusCode::kInvalidArgument: return "invalid argument";
    case onnxpool::StatusCode::kUnsupported: return "unsupported";
    case onnxpool::StatusCode::kInternal: return "internal error";
  }
  return "unknown status";
}

std::string describe(const onnxpool::Status& status) {
  return std::string(status_code_name(status.code())) + ": " + status.message();
}

bool build_attributes(const onnx::NodeProto& node, const std::string& node_path,
                      onnxpool::Attributes* attributes, std::string* error) {
  for (int k = 0; k < node.attribute_size(); ++k) {
    const onnx::AttributeProto& attribute = node.attribute(k);
    const std::string where = node_path + ".attribute[" + std::to_string(k) + "] '" + attribute.name() + "'";
    if (!attribute.ref_attr_name().empty()) {
      *error = where + " refers to a function attribute (ref_attr_name), which a model graph cannot do";
      return false;
    }
    switch (attribute.type()) {
      case onnx::AttributeProto::INT: attributes->set(attribute.name(), attribute.i()); break;
      case onnx::AttributeProto::INTS:
        attributes->set(attribute.name(), std::vector<int64_t>(attribute.ints().begin(), attribute.ints().end()));
        break;
      case onnx::AttributeProto::STRING: attributes->set(attribute.name(), attribute.s()); break;
      case onnx::AttributeProto::FLOAT: attributes->set(attribute.name(), attribute.f()); break;
      default:
        *error = where + " has type " + attribute_type_name(attribute.type()) +
                 ", which no pooling operator takes";
        return false;
    }
  }
  return true;
}

// Index of `name` in the names of `items` (anything with a name()), or its size.
template <typename Items>
size_t index_of_name(const Items& items, const std::string& name) {
  size_t i = 0;
  for (const auto& item : items) {
    if (item.name() == name) return i;
    ++i;
  }
  return i;
}

size_t index_of(const std::vector<std::string>& names, const std::string& name) {
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return i;
  }
  return names.size();
}

// Errors name the field of model.onnx at fault, e.g. "graph.node[0].input".
bool read_pool_node(const onnx::ModelProto& model, PoolNode* pool, std::string* error) {
  if (!model.has_graph()) {
    *error = "graph: missing; the model has no graph";
    return false;
  }
  const onnx::GraphProto& graph = model.graph();
  if (graph.node_size() != 1) {
    *error = "graph.node: the graph has " + std::to_string(graph.node_size()) +
             " nodes; the runner runs single-node pooling models";
    return false;
  }
  const onnx::NodeProto& node = graph.node(0);
  const std::string node_path = "graph.node[0]";
  if (!node.domain().empty() && node.domain() != "ai.onnx") {
    *error = node_path + ".domain: operator " + node.op_type() + " is in domain '" + node.domain() +
             "', not the default ONNX domain";
    return false;
  }
  pool->op = find_pool_operator(node.op_type());
  if (pool->op == nullptr) {
    *error = node_path + ".op_type: unsupported operator '" + node.op_type() + "'";
    return false;
  }
  if (pool->op->kernel == nullptr) {
    *error = node_path + ".op_type: operator " + node.op_type() + " is not implemented in onnxpool yet";
    return false;
  }

  onnxpool::Attributes attributes;
  if (!build_attributes(node, node_path, &attributes, error)) return false;
  const onnxpool::Status parsed =
      onnxpool::PoolAttributes::parse(pool->op->op, attributes, &pool->attributes);
  if (!parsed) {
    *error = node_path + ".attribute: PoolAttributes::parse: " + describe(parsed);
    return false;
  }

  if (node.input_size() != 1 || node.input(0).empty()) {
    *error = node_path + ".input: " + node.op_type() + " node has " + std::to_string(node.input_size()) +
             " inputs, expected 1 (X)";
    return false;
  }
  std::vector<std::string> graph_inputs;
  for (const onnx::ValueInfoProto& input : graph.input()) {
    if (index_of_name(graph.initializer(), input.name()) == static_cast<size_t>(graph.initializer_size())) {
      graph_inputs.push_back(input.name());
    }
  }
  pool->graph_input_count = graph_inputs.size();
  pool->x_input_index = index_of(graph_inputs, node.input(0));
  if (pool->x_input_index == graph_inputs.size()) {
    *error = node_path + ".input[0]: '" + node.input(0) + "' is not a graph input";
    return false;
  }

  if (node.output_size() == 0 || node.output(0).empty()) {
    *error = node_path + ".output: " + node.op_type() + " node has no output Y";
    return false;
  }
  if (static_cast<size_t>(node.output_size()) > pool->op->max_outputs) {
    *error = node_path + ".output: " + node.op_type() + " node has " + std::to_string(node.output_size()) +
             " outputs; the operator has at most " + std::to_string(pool->op->max_outputs);
    return false;
  }
  pool->node_outputs.assign(node.output().begin(), node.output().end());
  pool->graph_outputs.clear();
  for (int j = 0; j < graph.output_size(); ++j) {
    const std::string& name = graph.output(j).name();
    const size_t index = name.empty() ? pool->node_outputs.size() : index_of(pool->node_outputs, name);
    if (index == pool->node_outputs.size()) {
      *error = "graph.output[" + std::to_string(j) + "]: '" + name + "' is not an output of the " +
               node.op_type() + " node";
      return false;
    }
    pool->graph_outputs.push_back(name);
    pool->node_output_of_graph_output.push_back(index);
  }
  return true;
}

// Fills a fresh output with a pattern no kernel produces by accident
// (0xA5A5A5A5 is -2.9e-16 as float32), so elements a kernel never writes fail
// instead of passing on a lucky zero.
HostTensor poisoned_tensor(int32_t data_type, const std::vector<int64_t>& shape, size_t count) {
  HostTensor tensor;
  tensor.data_type = data_type;
  tensor.shape = shape;
  tensor.bytes.assign(count * element_byte_size(data_type), 0xA5);
  return tensor;
}

DataSetOutcome run_data_set(const PoolNode& pool, const DataSetFiles& files,
                            const Tolerance* tolerance_override) {
  DataSetOutcome outcome;
  std::string& failure = outcome.failure;
  if (files.inputs.size() != pool.graph_input_count) {
    failure = "has " + std::to_string(files.inputs.size()) + " input files, the model has " +
              std::to_string(pool.graph_input_count) + " inputs";
    return outcome;
  }
  if (files.outputs.size() != pool.graph_outputs.size()) {
    failure = "has " + std::to_string(files.outputs.size()) + " output files, the model has " +
              std::to_string(pool.graph_outputs.size()) + " outputs";
    return outcome;
  }

  HostTensor x;
  std::string x_name;
  if (!load_tensor_file(files.inputs[pool.x_input_index], &x, &x_name, &failure)) return outcome;
  onnxpool::ElementType x_type;
  if (!to_element_type(x.data_type, &x_type)) {
    failure = "input X has element type " + data_type_name(x.data_type) +
              ", which onnxpool has no ElementType for";
    return outcome;
  }
  const onnxpool::TensorView x_view(static_cast<const void*>(x.bytes.data()), x_type, x.shape);

  std::vector<int64_t> y_shape;
  const onnxpool::Status inferred = onnxpool::infer_output_shape(pool.attributes, x.shape, &y_shape);
  if (!inferred) {
    failure = "infer_output_shape: " + describe(inferred);
    return outcome;
  }
  size_t y_count = 0;
  // Sized for the widest output element (int64 Indices), so no allocation overflows.
  if (!element_count(y_shape, sizeof(int64_t), &y_count, &failure)) {
    failure = "infer_output_shape returned " + failure;
    return outcome;
  }

  const size_t output_count = pool.node_outputs.size();
  std::vector<HostTensor> computed(output_count);
  std::vector<onnxpool::TensorView> views(output_count);
  std::vector<const onnxpool::TensorView*> view_pointers(output_count, nullptr);
  for (size_t k = 0; k < output_count; ++k) {
    if (pool.node_outputs[k].empty()) continue;
    const int32_t type = output_data_type(*pool.op, k, x.data_type);
    computed[k] = poisoned_tensor(type, y_shape, y_count);
    views[k] = onnxpool::TensorView(static_cast<void*>(computed[k].bytes.data()),
                                    static_cast<onnxpool::ElementType>(type), y_shape);
    view_pointers[k] = &views[k];
  }
  const onnxpool::Status ran = pool.op->kernel(pool.attributes, x_view, view_pointers);
  if (!ran) {
    failure = std::string(pool.op->onnx_name) + " returned " + describe(ran);
    return outcome;
  }
  outcome.computed = true;
  for (size_t index : pool.node_output_of_graph_output) {
    outcome.graph_outputs.push_back(computed[index]);
  }

  for (size_t j = 0; j < files.outputs.size(); ++j) {
    HostTensor expected;
    std::string expected_name;
    if (!load_tensor_file(files.outputs[j], &expected, &expected_name, &failure)) return outcome;
    const std::string difference =
        compare_tensors(expected, outcome.graph_outputs[j], pool.op->comparison, tolerance_override);
    if (!difference.empty()) {
      failure = "output " + std::to_string(j) + " (" + pool.graph_outputs[j] + "): " + difference;
      return outcome;
    }
  }
  return outcome;
}

// Writes the data set as a runnable case whose expected outputs are onnxpool's.
bool write_data_set(const fs::path& case_out_dir, const PoolNode& pool, const DataSetFiles& files,
                    const DataSetOutcome& outcome, std::string* error) {
  const fs::path dir = case_out_dir / files.name;
  for (const fs::path& input : files.inputs) {
    std::string bytes;
    if (!read_file(input, &bytes, error) || !write_file(dir / input.filename(), bytes, error)) {
      return false;
    }
  }
  if (!outcome.computed) return true;
  for (size_t j = 0; j < outcome.graph_outputs.size(); ++j) {
    const onnx::TensorProto proto = tensor_to_proto(outcome.graph_outputs[j], pool.graph_outputs[j]);
    const fs::path path = dir / ("output_" + std::to_string(j) + ".pb");
    if (!write_file(path, proto.SerializeAsString(), error)) return false;
  }
  return true;
}

bool same_folder(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  return fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec);
}

CaseResult run_case_checked(const fs::path& case_dir, const RunOptions& options) {
  CaseResult result;
  result.name = case_name(case_dir);
  auto fail = [&result](const std::string& reason) {
    result.passed = false;
    result.reason = printable_line(reason);
    return result;
  };

  std::string model_bytes;
  std::string error;
  if (!read_file(case_dir / "model.onnx", &model_bytes, &error)) return fail(error);
  onnx::ModelProto model;
  if (!parse_model(model_bytes, &model, &error)) return fail("model.onnx: " + error);
  std::vector<DataSetFiles> data_sets;
  if (!list_data_sets(case_dir, &data_sets, &error)) return fail(error);

  fs::path case_out_dir;
  if (!options.output_dir.empty()) {
    case_out_dir = options.output_dir / result.name;
    if (same_folder(case_out_dir, case_dir)) {
      return fail("--output-dir would overwrite the case itself");
    }
    if (!write_file(case_out_dir / "model.onnx", model_bytes, &error)) return fail(error);
  }

  // tolerance_overrides.cpp lists the few cases whose published expected
  // values are less precise than the usual tolerance; the line says so.
  const ToleranceOverride* tolerance_override = find_tolerance_override(result.name);
  const Tolerance* tolerance = nullptr;
  if (tolerance_override != nullptr) {
    tolerance = &tolerance_override->tolerance;
    result.note = std::string("tolerance override: ") + tolerance_override->reason;
  }

  PoolNode pool;
  if (!read_pool_node(model, &pool, &error)) {
    // Still copy the inputs, so --output-dir holds every case it was given;
    // a failure to copy them matters less than why the case could not run.
    std::string copy_error;
    for (const DataSetFiles& files : data_sets) {
      if (!case_out_dir.empty()) {
        write_data_set(case_out_dir, pool, files, DataSetOutcome(), &copy_error);
      }
    }
    return fail("model.onnx: " + error);
  }

  std::string first_failure;
  size_t failed_data_sets = 0;
  for (const DataSetFiles& files : data_sets) {
    const DataSetOutcome outcome = run_data_set(pool, files, tolerance);
    if (!outcome.failure.empty() && failed_data_sets++ == 0) {
      first_failure = files.name + ": " + outcome.failure;
    }
    if (!case_out_dir.empty() && !write_data_set(case_out_dir, pool, files, outcome, &error)) {
      return fail(error);
    }
  }
  if (failed_data_sets > 1) {
    first_failure += " (and " + std::to_string(failed_data_sets - 1) + " more data sets failed)";
  }
  if (failed_data_sets > 0) return fail(first_failure);
  result.passed = true;
  return result;
}

}  // namespace

CaseResult run_case(const fs::path& case_dir, const RunOptions& options) {
  // The library promises not to throw, but a failed allocation of a huge
  // output must still be one failed case, not a dead runner.
  try {
    return run_case_checked(case_dir, options);
  } catch (const std::exception& e) {
    CaseResult result;
    result.name = case_name(case_dir);
    result.reason = printable_line(std::string("unexpected error: ") + e.what());
    return result;
  }
}

}  // namespace onnxpool_runner
