//===- Task.cpp - Parse and validate task.json ----------------------------===//
//
// Everything that can be checked without LibTorch is checked here, before the
// runner forks a worker: field types, names, roles and inits, that every dim a
// tensor or cost formula uses has a value in every shape, that outputs are
// produced by the reference. The reference's op names and argument types are
// checked against the ATen schemas in Reference.cpp.
//
//===----------------------------------------------------------------------===//

#include "kbench/Support/Task.h"
#include "kbench/Support/TaskSignature.h"

#include <set>
#include <sstream>

namespace kbench {

/// How many times less accurate than the task's reference (RMS error
/// against fp64) a candidate may be. Measured (docs/runner.md, "Accuracy"):
/// the task kernels reach at most 3.5x on the H200 and 61x on the host
/// target (its reductions are sequential loops, against ATen's cascade sums);
/// the F6 mutants it kills (one f32 value rounded to f16 or bf16) reach
/// 186x to 41000x at their worst case.
constexpr double kDefaultFp64Ratio = 128;

//===----------------------------------------------------------------------===//
// Small vocabularies
//===----------------------------------------------------------------------===//

namespace {
const std::pair<const char *, Init> kInits[] = {
    {"randn", Init::Randn},     {"randint", Init::Randint}, {"kaiming", Init::Kaiming},
    {"xavier", Init::Xavier},   {"uniform", Init::Uniform}, {"normal", Init::Normal},
};
} // namespace

Tolerance defaultTolerance(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return {1e-3, 1e-3, kDefaultFp64Ratio};
  case DType::F16:
  case DType::BF16:
    return {1e-2, 1e-2, kDefaultFp64Ratio};
  case DType::F64:
    return {1e-7, 1e-7, 0};
  default:
    return {0, 0, 0};
  }
}

const char *initName(Init init) {
  for (const auto &[name, value] : kInits)
    if (value == init)
      return name;
  return "?";
}

const char *roleName(Role role) {
  switch (role) {
  case Role::Input:
    return "input";
  case Role::Param:
    return "param";
  case Role::Grad:
    return "grad";
  }
  return "?";
}

const std::vector<std::string> &shapeSetNames() {
  static const std::vector<std::string> names = {"check", "tune", "heldout"};
  return names;
}

std::string ShapeCase::label() const {
  std::ostringstream os;
  os << set << "[" << index << "] {";
  bool first = true;
  for (const auto &[name, value] : dims) {
    os << (first ? "" : ", ") << name << "=" << value;
    first = false;
  }
  os << "}";
  return os.str();
}

std::vector<int64_t> TensorSpec::extents(const SymbolValues &dims) const {
  std::vector<int64_t> result;
  for (size_t i = 0; i < shape.size(); ++i) {
    std::string error;
    std::optional<int64_t> v = shape[i].evaluate(dims, error);
    if (!v)
      throw InputError(field + ".shape[" + std::to_string(i) + "] '" + shape[i].str() +
                       "': " + error);
    if (*v < 1)
      throw InputError(field + ".shape[" + std::to_string(i) + "] '" + shape[i].str() +
                       "' is " + std::to_string(*v) + "; extents must be >= 1");
    result.push_back(*v);
  }
  return result;
}

const TensorSpec *Task::findInput(const std::string &name) const {
  for (const TensorSpec &t : inputs)
    if (t.name == name)
      return &t;
  return nullptr;
}

const TensorSpec *Task::findOutput(const std::string &name) const {
  for (const TensorSpec &t : outputs)
    if (t.name == name)
      return &t;
  return nullptr;
}

Tolerance Task::toleranceFor(const TensorSpec &output) const {
  return output.tolerance ? *output.tolerance : tolerance;
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

namespace {

Tolerance parseTolerance(const Field &f) {
  f.allowOnly({"atol", "rtol", "fp64_ratio"});
  Tolerance t;
  t.atol = f.at("atol").number();
  t.rtol = f.at("rtol").number();
  if (auto ratio = f.get("fp64_ratio")) {
    t.fp64Ratio = ratio->number();
    if (t.fp64Ratio != 0 && !(t.fp64Ratio >= 1))
      ratio->fail("must be 0 (off) or >= 1: a candidate may not be required to be more "
                  "accurate than the reference itself");
  }
  if (t.atol < 0 || !(t.atol == t.atol))
    f.at("atol").fail("must be >= 0");
  if (t.rtol < 0 || !(t.rtol == t.rtol))
    f.at("rtol").fail("must be >= 0");
  return t;
}

TensorSpec parseTensor(const Field &f, bool isInput) {
  f.expectObject();
  if (isInput)
    f.allowOnly({"name", "shape", "dtype", "role", "init", "high", "of", "description"});
  else
    f.allowOnly({"name", "shape", "dtype", "grad_of", "tolerance", "description"});
  TensorSpec t;
  t.field = f.getPath();
  t.name = f.at("name").name();
  for (const Field &d : f.at("shape").elements())
    t.shape.push_back(parseExprField(d));
  t.dtype = parseDTypeField(f.at("dtype"));
  if (!isInput) {
    if (auto g = f.get("grad_of"))
      t.gradOf = g->name();
    if (auto tol = f.get("tolerance"))
      t.tolerance = parseTolerance(*tol);
    return t;
  }

  if (auto r = f.get("role")) {
    std::string role = r->string();
    if (role == "input")
      t.role = Role::Input;
    else if (role == "param")
      t.role = Role::Param;
    else if (role == "grad")
      t.role = Role::Grad;
    else
      r->fail("unknown role '" + role + "' (input, param, grad)");
  }
  std::optional<Field> initField = f.get("init");
  if (initField) {
    std::string name = initField->string();
    bool found = false;
    for (const auto &[n, value] : kInits)
      if (name == n) {
        t.init = value;
        found = true;
      }
    if (!found)
      initField->fail("unknown init '" + name +
                      "' (randn, randint, kaiming, xavier, uniform, normal; identity and "
                      "constant inits are not allowed: they hide missing work)");
  }

  const std::string where = "'" + t.name + "' (role " + roleName(t.role) + ")";
  switch (t.role) {
  case Role::Param:
    if (!initField)
      f.failAt("init", "a param needs an init: kaiming, xavier, uniform or normal");
    if (t.init == Init::Randn || t.init == Init::Randint)
      initField->fail("a param's init is kaiming, xavier, uniform or normal");
    if (!isFloat(t.dtype))
      f.at("dtype").fail("a param must have a float dtype");
    if ((t.init == Init::Kaiming || t.init == Init::Xavier) && t.shape.size() < 2)
      initField->fail(std::string(initName(t.init)) +
                      " needs a tensor of rank >= 2 (fan_in = prod(shape[1:])); use "
                      "uniform or normal for " + where);
    break;
  case Role::Input:
    if (!initField)
      t.init = isFloat(t.dtype) ? Init::Randn : Init::Randint;
    if (isFloat(t.dtype) && t.init != Init::Randn)
      initField->fail("a float input is drawn with randn (the distributions of the "
                      "protocol transform it); use role 'param' for weights");
    if (!isFloat(t.dtype) && t.init != Init::Randint)
      f.at("dtype").fail("an integer input needs init 'randint' and 'high'");
    break;
  case Role::Grad:
    if (initField && t.init != Init::Randn)
      initField->fail("a grad input is drawn with randn");
    t.init = Init::Randn;
    if (!isFloat(t.dtype))
      f.at("dtype").fail("a grad input must have a float dtype");
    t.of = f.at("of").name();
    break;
  }
  if (t.init == Init::Randint)
    t.high = parseExprField(f.at("high"));
  else if (auto h = f.get("high"))
    h->fail("only randint inputs take 'high'");
  if (t.role != Role::Grad && f.get("of"))
    f.at("of").fail("only role 'grad' inputs take 'of'");
  return t;
}

RefOp parseRefOp(const Field &f) {
  f.allowOnly({"op", "args", "kwargs", "out", "description"});
  RefOp op;
  op.field = f.getPath();
  op.op = f.at("op").name();
  size_t colons = op.op.find("::");
  if (colons == std::string::npos || colons == 0)
    f.at("op").fail("'" + op.op + "' is not an op name such as 'aten::relu' or 'aten::add.Tensor'");
  size_t dot = op.op.find('.', colons + 2);
  op.name = op.op.substr(0, dot);
  op.overload = dot == std::string::npos ? "" : op.op.substr(dot + 1);
  if (auto args = f.get("args"))
    for (const Field &a : args->elements())
      op.args.push_back(a.json());
  if (auto kwargs = f.get("kwargs"))
    for (const auto &[key, value] : kwargs->members())
      op.kwargs.emplace_back(key, value.json());
  Field out = f.at("out");
  if (out.json().is_string()) {
    op.outs.push_back(out.name());
  } else {
    for (const Field &o : out.elements())
      op.outs.push_back(o.json().is_null() ? "" : o.name());
    if (op.outs.empty())
      out.fail("names no result");
  }
  return op;
}

void collect(const std::vector<ShapeExpr> &exprs, std::set<std::string> &out) {
  for (const ShapeExpr &e : exprs)
    e.collectSymbols(out);
}

} // namespace

Task parseTask(const nlohmann::json &doc, const std::string &file) {
  Field root(doc, "", file);
  root.expectObject();
  root.allowOnly({"name", "kind", "description", "inputs", "outputs",
                  "reference", "shapes", "tolerance", "cost", "allow_tf32",
                  "derived_dims"});
  Task task;
  task.file = file;
  task.name = root.at("name").name();
  if (auto kind = root.get("kind")) {
    std::string k = kind->string();
    if (k != "forward" && k != "backward")
      kind->fail("unknown kind '" + k + "' (forward, backward)");
    task.backward = k == "backward";
  }
  if (auto tf32 = root.get("allow_tf32"))
    task.allowTf32 = tf32->boolean();

  std::set<std::string> names;
  auto declare = [&](const TensorSpec &t, const Field &f) {
    if (!names.insert(t.name).second)
      f.at("name").fail("'" + t.name + "' is declared twice");
  };
  for (const Field &f : root.at("inputs").elements()) {
    task.inputs.push_back(parseTensor(f, /*isInput=*/true));
    declare(task.inputs.back(), f);
  }
  std::vector<Field> outputFields = root.at("outputs").elements();
  if (outputFields.empty())
    root.at("outputs").fail("a task needs at least one output");
  for (const Field &f : outputFields) {
    task.outputs.push_back(parseTensor(f, /*isInput=*/false));
    declare(task.outputs.back(), f);
  }

  // The reference: results must be new names, produced once.
  std::set<std::string> produced;
  std::vector<Field> refFields = root.at("reference").elements();
  if (refFields.empty())
    root.at("reference").fail("a task needs at least one reference op");
  for (const Field &f : refFields) {
    task.reference.push_back(parseRefOp(f));
    for (const std::string &out : task.reference.back().outs) {
      if (out.empty())
        continue;
      if (task.findInput(out))
        f.at("out").fail("'" + out + "' is an input; results need new names");
      if (!produced.insert(out).second)
        f.at("out").fail("'" + out + "' is produced twice");
    }
  }

  // Outputs: forward tasks return reference results; backward tasks return
  // gradients of inputs, seeded by role-grad inputs.
  for (size_t i = 0; i < task.outputs.size(); ++i) {
    const TensorSpec &out = task.outputs[i];
    Field f = outputFields[i];
    if (!task.backward) {
      if (!out.gradOf.empty())
        f.at("grad_of").fail("only backward tasks have gradient outputs");
      if (!produced.count(out.name))
        f.at("name").fail("output '" + out.name +
                          "' is not produced by any reference op (name it in an 'out')");
      continue;
    }
    if (out.gradOf.empty())
      f.failAt("grad_of", "a backward task's outputs are gradients: name the input");
    const TensorSpec *of = task.findInput(out.gradOf);
    if (!of || of->role == Role::Grad)
      f.at("grad_of").fail("'" + out.gradOf + "' is not an input or param of the task");
    if (!isFloat(of->dtype))
      f.at("grad_of").fail("'" + out.gradOf + "' has an integer dtype; it has no gradient");
    if (produced.count(out.name))
      f.at("name").fail("'" + out.name + "' is also a reference result");
  }
  bool hasGrad = false;
  for (size_t i = 0; i < task.inputs.size(); ++i) {
    const TensorSpec &in = task.inputs[i];
    if (in.role != Role::Grad)
      continue;
    hasGrad = true;
    Field f = root.at("inputs").elements()[i];
    if (!task.backward)
      f.at("role").fail("grad inputs belong to backward tasks (set \"kind\": \"backward\")");
    if (!produced.count(in.of))
      f.at("of").fail("'" + in.of + "' is not produced by any reference op");
  }
  if (task.backward && !hasGrad)
    root.at("inputs").fail("a backward task needs a role 'grad' input (the seeded grad_out)");

  // Tolerance: the task's, else the loosest default of its outputs.
  if (auto tol = root.get("tolerance")) {
    task.tolerance = parseTolerance(*tol);
  } else {
    task.tolerance = {0, 0, 0};
    for (const TensorSpec &out : task.outputs) {
      Tolerance d = defaultTolerance(out.dtype);
      task.tolerance.fp64Ratio = std::max(task.tolerance.fp64Ratio, d.fp64Ratio);
      task.tolerance.atol = std::max(task.tolerance.atol, d.atol);
      task.tolerance.rtol = std::max(task.tolerance.rtol, d.rtol);
    }
  }

  // Cost formulas.
  std::set<std::string> symbols;
  if (auto cost = root.get("cost")) {
    cost->allowOnly({"flops", "bytes", "math"});
    if (auto flops = cost->get("flops"))
      task.costFlops = parseExprField(*flops);
    if (auto bytes = cost->get("bytes"))
      task.costBytes = parseExprField(*bytes);
    if (auto math = cost->get("math")) {
      task.costMath = math->string();
      if (task.costMath != "f32" && task.costMath != "tf32" && task.costMath != "bf16" &&
          task.costMath != "f16")
        math->fail("unknown math '" + task.costMath + "' (f32, tf32, bf16, f16)");
    }
    if (task.costFlops)
      task.costFlops->collectSymbols(symbols);
    if (task.costBytes)
      task.costBytes->collectSymbols(symbols);
  }
  for (const TensorSpec &t : task.inputs) {
    collect(t.shape, symbols);
    if (t.high)
      t.high->collectSymbols(symbols);
  }
  for (const TensorSpec &t : task.outputs)
    collect(t.shape, symbols);

  // Derived dims: expressions over the shapes' dims, named apart from them.
  std::optional<Field> derived = root.get("derived_dims");
  std::vector<Field> derivedFields;
  if (derived) {
    derived->expectObject();
    for (const auto &[name, value] : derived->members()) {
      ShapeExpr expr = parseExprField(value);
      if (symbols.count(name))
        value.fail("'" + name +
                   "' is a dim of the task's tensors or cost; a derived "
                   "dim needs a name of its own");
      task.derivedDims.emplace_back(name, expr);
      derivedFields.push_back(value);
    }
  }

  // Shapes: every set is a list of {dim: value}; each must bind every dim.
  Field shapes = root.at("shapes");
  shapes.allowOnly({"tune", "check", "heldout"});
  for (const std::string &set : shapeSetNames()) {
    std::optional<Field> list = shapes.get(set.c_str());
    if (!list) {
      if (set == "heldout")
        continue;
      shapes.at(set.c_str()); // fails: required
    }
    std::vector<Field> cases = list->elements();
    if (cases.empty() && set != "heldout")
      list->fail("needs at least one shape");
    for (size_t i = 0; i < cases.size(); ++i) {
      ShapeCase sc;
      sc.set = set;
      sc.index = static_cast<int>(i);
      for (const auto &[dim, value] : cases[i].members()) {
        int64_t v = value.integer();
        if (v < 1)
          value.fail("dims must be >= 1, got " + std::to_string(v));
        if (derived && derived->get(dim.c_str()))
          value.fail("'" + dim +
                     "' is a derived dim (derived_dims); shapes bind the "
                     "task's own dims only");
        sc.dims[dim] = v;
      }
      for (const std::string &s : symbols)
        if (!sc.dims.count(s))
          cases[i].fail("dim '" + s + "' has no value (every shape binds every dim the "
                        "tensors and cost formulas use)");
      try {
        for (const TensorSpec &t : task.inputs)
          t.extents(sc.dims);
        for (const TensorSpec &t : task.outputs)
          t.extents(sc.dims);
      } catch (const InputError &e) {
        cases[i].fail(e.what());
      }
      sc.launchDims = sc.dims;
      for (size_t d = 0; d < task.derivedDims.size(); ++d) {
        const auto &[name, expr] = task.derivedDims[d];
        std::string error;
        std::optional<int64_t> v = expr.evaluate(sc.dims, error);
        if (!v)
          derivedFields[d].fail(
              error + " at " + sc.label() +
              " (derived dims are expressions over the shape's dims)");
        if (*v < 1)
          derivedFields[d].fail("'" + expr.str() + "' is " +
                                std::to_string(*v) + " at " + sc.label() +
                                "; dims must be >= 1");
        sc.launchDims[name] = *v;
      }
      task.shapes[set].push_back(sc);
    }
  }
  return task;
}

Task parseTaskFile(const std::filesystem::path &path) {
  std::filesystem::path file = path;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw InputError(path.string() + ": no such task folder (expected a folder holding "
                                     "task.json, such as tasks/row_sum)");
  if (std::filesystem::is_directory(path, ec))
    file = path / "task.json";
  nlohmann::json doc = readJsonFile(file, "task file");
  Task task = parseTask(doc, file.string());
  task.dir = file.parent_path();
  return task;
}

} // namespace kbench

//===----------------------------------------------------------------------===//
// The compiler's entry (TaskSignature.h)
//===----------------------------------------------------------------------===//

namespace kbench {

std::optional<TaskSignature> tryReadTaskSignature(const std::filesystem::path &taskDir,
                                                  std::string &error) {
  try {
    Task task = parseTaskFile(taskDir);
    TaskSignature signature;
    signature.name = task.name;
    for (const TensorSpec &t : task.inputs)
      signature.inputs.push_back(t.name);
    for (const TensorSpec &t : task.outputs)
      signature.outputs.push_back(t.name);
    std::set<std::string> dims;
    for (const auto &[set, cases] : task.shapes)
      for (const ShapeCase &sc : cases)
        for (const auto &[dim, value] : sc.dims)
          dims.insert(dim);
    signature.dims.assign(dims.begin(), dims.end());
    for (const auto &[set, cases] : task.shapes)
      for (const ShapeCase &sc : cases)
        signature.shapes.emplace_back(sc.label(), sc.launchDims);
    signature.allowTf32 = task.allowTf32;
    return signature;
  } catch (const InputError &e) {
    error = e.what();
    return std::nullopt;
  }
}

} // namespace kbench
