//===- Reference.cpp - ATen ops by name, bound against their schemas ------===//
//
// Binding happens once per task, in the supervisor, so that a typo in an op
// name or an argument is a task error with a field, before any candidate runs.
// Running is a boxed dispatcher call per op; the dispatcher routes through
// autograd when an input requires grad (backward tasks).
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/Reference.h"

#include "kbench/Runner/Worker.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/csrc/autograd/autograd.h>

#include <set>
#include <unordered_map>

namespace kbench::runner {

namespace {

/// One schema argument bound to a task.json value.
struct BoundArg {
  enum class Kind { Tensor, TensorList, Literal, Expr, ExprList } kind = Kind::Literal;
  std::vector<std::string> names; ///< Tensor (one), TensorList
  c10::IValue literal;            ///< Literal (None included)
  std::vector<ShapeExpr> exprs;   ///< Expr (one), ExprList
  bool asFloat = false;           ///< Expr for a float argument
  std::string field;
};

struct Step {
  c10::OperatorHandle handle;
  std::vector<BoundArg> args;
  std::vector<std::string> outs;
  std::string field;
  std::string op;
};

std::string typeName(const c10::TypePtr &t) { return t->str(); }

std::optional<at::ScalarType> scalarTypeByName(const std::string &name) {
  std::optional<DType> d = parseDType(name);
  if (!d)
    return std::nullopt;
  return toScalarType(*d);
}

/// `field` already names the file; the shared field parser gives the message.
ShapeExpr exprOf(const nlohmann::json &v, const std::string &field) {
  return parseExprField(Field(v, field, ""));
}

class Binder {
public:
  Binder(const std::string &file, const std::set<std::string> &known) : file(file), known(known) {}

  BoundArg bind(const c10::Argument &schemaArg, const nlohmann::json &v, const std::string &field) {
    BoundArg b;
    b.field = field;
    c10::TypePtr type = schemaArg.type();
    c10::TypePtr real = schemaArg.real_type();
    bool optional = type->kind() == c10::TypeKind::OptionalType;
    if (optional)
      type = type->castRaw<c10::OptionalType>()->getElementType();
    if (real->kind() == c10::TypeKind::OptionalType)
      real = real->castRaw<c10::OptionalType>()->getElementType();
    const std::string what = "argument '" + schemaArg.name() + "' (" +
                             typeName(schemaArg.type()) + ")";
    auto fail = [&](const std::string &msg) -> BoundArg {
      throw InputError(file + ": " + field + ": " + what + ": " + msg);
    };

    if (v.is_null()) {
      if (!optional)
        fail("is not optional; null is not allowed");
      b.literal = c10::IValue();
      return b;
    }
    auto tensorName = [&](const nlohmann::json &n) {
      if (!n.is_string() || !known.count(n.get<std::string>()))
        fail("expects a tensor: the name of an input or of an earlier 'out', got " + n.dump());
      return n.get<std::string>();
    };
    auto isInt = [](const c10::TypePtr &t) {
      return t->kind() == c10::TypeKind::IntType || t->kind() == c10::TypeKind::SymIntType;
    };

    switch (type->kind()) {
    case c10::TypeKind::TensorType:
      b.kind = BoundArg::Kind::Tensor;
      b.names.push_back(tensorName(v));
      return b;
    case c10::TypeKind::ListType: {
      c10::TypePtr elem = type->castRaw<c10::ListType>()->getElementType();
      if (elem->kind() == c10::TypeKind::OptionalType)
        elem = elem->castRaw<c10::OptionalType>()->getElementType();
      // A single value where the schema takes `int[1]` is accepted, as in Python.
      nlohmann::json list = v.is_array() ? v : nlohmann::json::array({v});
      if (elem->kind() == c10::TypeKind::TensorType) {
        b.kind = BoundArg::Kind::TensorList;
        for (const auto &n : list)
          b.names.push_back(tensorName(n));
        return b;
      }
      if (isInt(elem)) {
        b.kind = BoundArg::Kind::ExprList;
        for (const auto &n : list) {
          if (!n.is_number_integer() && !n.is_string())
            fail("expects integers or shape expressions, got " + n.dump());
          b.exprs.push_back(exprOf(n, file + ": " + field));
        }
        return b;
      }
      if (elem->kind() == c10::TypeKind::FloatType) {
        std::vector<double> values;
        for (const auto &n : list) {
          if (!n.is_number())
            fail("expects numbers, got " + n.dump());
          values.push_back(n.get<double>());
        }
        b.literal = c10::IValue(values);
        return b;
      }
      if (elem->kind() == c10::TypeKind::BoolType) {
        c10::List<bool> values;
        for (const auto &n : list) {
          if (!n.is_boolean())
            fail("expects booleans, got " + n.dump());
          values.push_back(n.get<bool>());
        }
        b.literal = c10::IValue(values);
        return b;
      }
      return fail("lists of " + typeName(elem) + " cannot be written in task.json");
    }
    case c10::TypeKind::IntType:
    case c10::TypeKind::SymIntType:
      if (real->kind() == c10::TypeKind::ScalarTypeType) {
        std::optional<at::ScalarType> st =
            v.is_string() ? scalarTypeByName(v.get<std::string>()) : std::nullopt;
        if (!st)
          fail("expects a dtype name (f32, f16, bf16, f64, i32, i64, ...), got " + v.dump());
        b.literal = c10::IValue(static_cast<int64_t>(*st));
        return b;
      }
      if (!v.is_number_integer() && !v.is_string())
        fail("expects an integer or a shape expression such as \"N\", got " + v.dump());
      b.kind = BoundArg::Kind::Expr;
      b.exprs.push_back(exprOf(v, file + ": " + field));
      return b;
    case c10::TypeKind::FloatType:
      if (v.is_number()) {
        b.literal = c10::IValue(v.get<double>());
        return b;
      }
      if (!v.is_string())
        fail("expects a number, got " + v.dump());
      b.kind = BoundArg::Kind::Expr;
      b.asFloat = true;
      b.exprs.push_back(exprOf(v, file + ": " + field));
      return b;
    case c10::TypeKind::NumberType: // Scalar
      if (v.is_number_integer()) {
        b.literal = c10::IValue(v.get<int64_t>());
      } else if (v.is_number()) {
        b.literal = c10::IValue(v.get<double>());
      } else if (v.is_boolean()) {
        b.literal = c10::IValue(v.get<bool>());
      } else if (v.is_string()) {
        b.kind = BoundArg::Kind::Expr;
        b.exprs.push_back(exprOf(v, file + ": " + field));
      } else {
        fail("expects a number, got " + v.dump());
      }
      return b;
    case c10::TypeKind::BoolType:
      if (!v.is_boolean())
        fail("expects true or false, got " + v.dump());
      b.literal = c10::IValue(v.get<bool>());
      return b;
    case c10::TypeKind::StringType:
      if (!v.is_string())
        fail("expects a string, got " + v.dump());
      b.literal = c10::IValue(v.get<std::string>());
      return b;
    default:
      return fail("this argument type cannot be written in task.json; leave it out to take "
                  "its default, or pass null if it is optional");
    }
  }

private:
  const std::string &file;
  const std::set<std::string> &known;
};

const std::set<std::string> &matmulOps() {
  static const std::set<std::string> ops = {
      "aten::linear",   "aten::matmul",  "aten::mm",         "aten::bmm",
      "aten::addmm",    "aten::addbmm",  "aten::baddbmm",    "aten::einsum",
      "aten::mv",       "aten::addmv",   "aten::bilinear",   "aten::tensordot",
      "aten::conv1d",   "aten::conv2d",  "aten::conv3d",     "aten::convolution",
      "aten::conv_transpose1d", "aten::conv_transpose2d", "aten::conv_transpose3d",
      "aten::scaled_dot_product_attention", "aten::_convolution"};
  return ops;
}

} // namespace

struct Reference::Impl {
  const Task *task = nullptr;
  std::vector<Step> steps;
  bool fp32Matmul = false;

  /// Runs the ops; `env` holds the inputs on entry and every result on exit.
  void evaluate(std::unordered_map<std::string, c10::IValue> &env, const SymbolValues &dims) const {
    for (const Step &step : steps) {
      std::vector<c10::IValue> stack;
      stack.reserve(step.args.size());
      for (const BoundArg &a : step.args) {
        switch (a.kind) {
        case BoundArg::Kind::Tensor:
          stack.push_back(env.at(a.names[0]));
          break;
        case BoundArg::Kind::TensorList: {
          std::vector<at::Tensor> list;
          for (const std::string &n : a.names)
            list.push_back(env.at(n).toTensor());
          stack.push_back(c10::IValue(list));
          break;
        }
        case BoundArg::Kind::Literal:
          stack.push_back(a.literal);
          break;
        case BoundArg::Kind::Expr:
        case BoundArg::Kind::ExprList: {
          std::vector<int64_t> values;
          for (const ShapeExpr &e : a.exprs) {
            std::string error;
            std::optional<int64_t> v = e.evaluate(dims, error);
            if (!v)
              throw InputError(task->file + ": " + a.field + ": '" + e.str() + "': " + error);
            values.push_back(*v);
          }
          if (a.kind == BoundArg::Kind::ExprList)
            stack.push_back(c10::IValue(values));
          else if (a.asFloat)
            stack.push_back(c10::IValue(static_cast<double>(values[0])));
          else
            stack.push_back(c10::IValue(values[0]));
          break;
        }
        }
      }
      try {
        step.handle.callBoxed(&stack);
      } catch (const c10::Error &e) {
        throw InputError(task->file + ": " + step.field + " (" + step.op +
                         ") failed: " + e.what_without_backtrace());
      }
      for (size_t i = 0; i < step.outs.size() && i < stack.size(); ++i)
        if (!step.outs[i].empty())
          env[step.outs[i]] = stack[i];
    }
  }

  at::Tensor result(const std::unordered_map<std::string, c10::IValue> &env,
                    const std::string &name) const {
    auto it = env.find(name);
    if (it == env.end() || !it->second.isTensor())
      throw InputError(task->file + ": reference result '" + name + "' is not a tensor");
    return it->second.toTensor();
  }
};

Reference::Reference(const Task &task) : impl(std::make_unique<Impl>()) {
  impl->task = &task;
  std::set<std::string> known;
  for (const TensorSpec &t : task.inputs)
    known.insert(t.name);
  bool anyF32 = false;
  for (const TensorSpec &t : task.inputs)
    anyF32 = anyF32 || t.dtype == DType::F32;

  for (const RefOp &op : task.reference) {
    auto handle = c10::Dispatcher::singleton().findSchema({op.name, op.overload});
    if (!handle)
      throw InputError(task.file + ": " + op.field + ".op: no ATen op '" + op.op +
                       "' in this LibTorch" +
                       (op.overload.empty() ? " (an overloaded op needs its overload, "
                                              "e.g. 'aten::add.Tensor')"
                                            : " (check the overload name after the '.')"));
    const c10::FunctionSchema &schema = handle->schema();
    const auto &sargs = schema.arguments();
    if (op.args.size() > sargs.size())
      throw InputError(task.file + ": " + op.field + ".args: " + std::to_string(op.args.size()) +
                       " arguments, but " + op.op + " takes " + std::to_string(sargs.size()) +
                       ": " + toString(schema));
    Step step{*handle, {}, op.outs, op.field, op.op};
    Binder binder(task.file, known);
    std::set<std::string> usedKwargs;
    for (size_t i = 0; i < sargs.size(); ++i) {
      const c10::Argument &sa = sargs[i];
      const nlohmann::json *value = nullptr;
      std::string field;
      if (i < op.args.size()) {
        value = &op.args[i];
        field = op.field + ".args[" + std::to_string(i) + "]";
      }
      for (const auto &[key, v] : op.kwargs) {
        if (key != sa.name())
          continue;
        if (value)
          throw InputError(task.file + ": " + op.field + ".kwargs." + key +
                           ": already given as args[" + std::to_string(i) + "]");
        value = &v;
        field = op.field + ".kwargs." + key;
        usedKwargs.insert(key);
      }
      if (value) {
        step.args.push_back(binder.bind(sa, *value, field));
      } else if (sa.default_value()) {
        BoundArg b;
        b.literal = *sa.default_value();
        step.args.push_back(b);
      } else {
        throw InputError(task.file + ": " + op.field + ": " + op.op + " needs argument '" +
                         sa.name() + "' (" + sa.type()->str() +
                         "); add it to 'args' or 'kwargs': " + toString(schema));
      }
    }
    for (const auto &[key, v] : op.kwargs)
      if (!usedKwargs.count(key))
        throw InputError(task.file + ": " + op.field + ".kwargs." + key + ": " + op.op +
                         " has no argument '" + key + "': " + toString(schema));
    if (op.outs.size() > schema.returns().size())
      throw InputError(task.file + ": " + op.field + ".out: names " +
                       std::to_string(op.outs.size()) + " results, but " + op.op + " returns " +
                       std::to_string(schema.returns().size()));
    for (const std::string &out : op.outs)
      if (!out.empty())
        known.insert(out);
    if (anyF32 && matmulOps().count(op.name))
      impl->fp32Matmul = true;
    impl->steps.push_back(std::move(step));
  }
}

Reference::~Reference() = default;
Reference::Reference(Reference &&) noexcept = default;

bool Reference::hasFp32Matmul() const { return impl->fp32Matmul; }

TensorMap Reference::run(const TensorMap &inputs, const SymbolValues &dims,
                         bool checkDtypes) const {
  const Task &task = *impl->task;
  std::unordered_map<std::string, c10::IValue> env;
  for (const auto &[name, t] : inputs)
    env[name] = t;
  TensorMap result;

  auto checked = [&](const TensorSpec &o, at::Tensor t) {
    std::vector<int64_t> want = o.extents(dims);
    if (t.sizes() != at::IntArrayRef(want))
      throw InputError(task.file + ": the reference gives '" + o.name + "' shape " +
                       c10::str(t.sizes()) + " but " + o.field + " declares " +
                       c10::str(at::IntArrayRef(want)));
    if (checkDtypes && t.scalar_type() != toScalarType(o.dtype))
      throw InputError(task.file + ": the reference gives '" + o.name + "' dtype " +
                       c10::toString(t.scalar_type()) + " but " + o.field + " declares " +
                       dtypeName(o.dtype));
    return t.detach();
  };

  if (!task.backward) {
    c10::NoGradGuard noGrad;
    impl->evaluate(env, dims);
    for (const TensorSpec &o : task.outputs)
      result[o.name] = checked(o, impl->result(env, o.name));
    return result;
  }

  at::AutoGradMode grad(true);
  std::map<std::string, at::Tensor> leaves;
  for (const TensorSpec &o : task.outputs) {
    if (!leaves.count(o.gradOf))
      leaves[o.gradOf] = inputs.at(o.gradOf).detach().requires_grad_(true);
    env[o.gradOf] = leaves[o.gradOf];
  }
  impl->evaluate(env, dims);
  std::vector<at::Tensor> roots, seeds, targets;
  for (const TensorSpec &in : task.inputs)
    if (in.role == Role::Grad) {
      roots.push_back(impl->result(env, in.of));
      seeds.push_back(inputs.at(in.name));
    }
  for (const TensorSpec &o : task.outputs)
    targets.push_back(leaves[o.gradOf]);
  std::vector<at::Tensor> grads;
  try {
    grads = torch::autograd::grad(roots, targets, seeds, /*retain_graph=*/false,
                                  /*create_graph=*/false, /*allow_unused=*/true);
  } catch (const c10::Error &e) {
    throw InputError(task.file + ": autograd through the reference failed: " +
                     e.what_without_backtrace());
  }
  for (size_t i = 0; i < task.outputs.size(); ++i) {
    at::Tensor g = grads[i].defined() ? grads[i] : at::zeros_like(targets[i].detach());
    result[task.outputs[i].name] = checked(task.outputs[i], g);
  }
  return result;
}

std::function<void()> Reference::timedClosure(const TensorMap &inputs,
                                              const SymbolValues &dims) const {
  const Task &task = *impl->task;
  const Impl *self = impl.get();
  if (!task.backward) {
    return [self, inputs, dims] {
      c10::NoGradGuard noGrad;
      std::unordered_map<std::string, c10::IValue> env;
      for (const auto &[name, t] : inputs)
        env[name] = t;
      self->evaluate(env, dims);
    };
  }
  // Backward: record the forward graph once, time only the gradients.
  at::AutoGradMode grad(true);
  std::unordered_map<std::string, c10::IValue> env;
  for (const auto &[name, t] : inputs)
    env[name] = t;
  std::map<std::string, at::Tensor> leaves;
  std::vector<at::Tensor> targets;
  for (const TensorSpec &o : task.outputs) {
    if (!leaves.count(o.gradOf))
      leaves[o.gradOf] = inputs.at(o.gradOf).detach().requires_grad_(true);
    env[o.gradOf] = leaves[o.gradOf];
    targets.push_back(leaves[o.gradOf]);
  }
  self->evaluate(env, dims);
  std::vector<at::Tensor> roots, seeds;
  for (const TensorSpec &in : task.inputs)
    if (in.role == Role::Grad) {
      roots.push_back(self->result(env, in.of));
      seeds.push_back(inputs.at(in.name));
    }
  return [roots, seeds, targets] {
    torch::autograd::grad(roots, targets, seeds, /*retain_graph=*/true,
                          /*create_graph=*/false, /*allow_unused=*/true);
  };
}

std::shared_ptr<const Reference> bindReference(const Task &task) {
  return std::make_shared<const Reference>(task);
}

} // namespace kbench::runner
